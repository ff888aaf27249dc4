"""Dockable panels of the control room window, each fed only by the core's snapshots and deltas."""

from controlroom.ui.panels.alarms import AlarmBanner
from controlroom.ui.panels.controls import GameControls
from controlroom.ui.panels.deadlines import DeadlinePanel
from controlroom.ui.panels.sides import SideSummaryBar
from controlroom.ui.panels.timeline import TimelinePanel
from controlroom.ui.panels.valhalla import ValhallaPanel

__all__ = ["AlarmBanner", "DeadlinePanel", "GameControls", "SideSummaryBar", "TimelinePanel", "ValhallaPanel"]
