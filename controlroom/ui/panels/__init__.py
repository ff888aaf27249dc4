"""Dockable panels of the control room window, each fed only by the core's snapshots and deltas."""
