"""Whether this station may fire the game's rule deadlines: a game file always; a shared game, its lock holder.

On a game file the station is ALONE and always fires.  On a shared game
(PostgreSQL) it fires only while it holds the game's timer lock, and only
once it has read every event appended before it took the lock (``caught_up``):
the deadlines the previous owner fired are events in the log, so the new
owner fires only what is still due.  The lock itself is watched by a thread
of the core's (``core.server_watch.TimerWatch``), which tells this object.
"""

from __future__ import annotations

ALONE = "alone"          # a game file: the one station runs the timers
OWNER = "owner"          # this station runs the game's rule timers
STANDBY = "standby"      # another station does; this one takes over if it disappears
OFFLINE = "offline"      # the server cannot be reached: nobody here runs the timers


class Authority:
    """The timer ownership of one station, as the lock's watcher reports it."""

    def __init__(self, shared: bool) -> None:
        self.state = STANDBY if shared else ALONE
        self.shared = shared
        self.epoch = 0               # the lock's session while this station fires under it
        self.claimed = 0             # the lock's session taken, not yet caught up with

    @property
    def may_fire(self) -> bool:
        return self.state in (ALONE, OWNER)

    def acquired(self, epoch: int) -> None:
        """The watcher took the lock (session ``epoch``): read the log up to now, then ``caught_up``."""
        self.claimed = epoch

    def caught_up(self, epoch: int) -> bool:
        """Every event before the lock was taken is folded: fire from now on (unless the lock was lost meanwhile)."""
        if not self.shared or self.claimed != epoch or not epoch:
            return False
        self.epoch = epoch
        self.state = OWNER
        return True

    def lost(self, state: str) -> None:
        """The watcher lost the lock (the server went away) or found another holder: STANDBY or OFFLINE."""
        self.epoch = self.claimed = 0
        self.state = state

    def lock_lost(self) -> bool:
        """Deadlines fired under the lock were refused: another station holds it now.  True if this was the owner
        (then the watcher must look again at once)."""
        if self.state != OWNER:
            return False
        self.lost(STANDBY)
        return True
