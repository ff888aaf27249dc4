"""User interface: windows, docks, the live map and dialogs (Qt; may import every layer below)."""
