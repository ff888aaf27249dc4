"""Drive an Engine by hand, with no thread and no wait: each step's batch written by a real BatchWriter at once."""

from __future__ import annotations

from pathlib import Path

from controlroom.engine import commands as cmds
from controlroom.engine.authority import OWNER
from controlroom.engine.engine import Engine
from controlroom.engine.opening import open_game
from controlroom.engine.output import Output
from controlroom.engine.storage import BatchWriter
from controlroom.game.clock import VirtualClock
from controlroom.game.roster import Member
from controlroom.radio.link import FrameHeard
from controlroom.store.game import GameStore

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(3, "Carl", "North", "Wolves", "healer"), Member(11, "Gerd", "South", "Ravens")]


def new_game(path: Path, roster=ROSTER) -> str:
    with GameStore.open(path) as store:
        store.save_roster(roster)
    return str(path)


def merged(outputs: list[Output]) -> Output:
    """Every effect of several steps, in order."""
    out = Output()
    for o in outputs:
        out.acks += o.acks
        out.alarms += o.alarms
        out.stopps += o.stopps
        out.died += o.died
        out.rejected += o.rejected
        out.roster += o.roster
        out.answers += o.answers
        out.links += o.links
        out.stored = o.stored if o.stored is not None else out.stored
        out.publish |= o.publish
        out.refold |= o.refold
        out.timers = o.timers or out.timers
    return out


class Pump:
    """An open game's engine, its batches stored as soon as they are made (``settle``)."""

    def __init__(self, db: str, clock: VirtualClock | None = None, **options) -> None:
        self.clock = clock or VirtualClock(0)
        self.game = open_game(db, clock=self.clock, **options.pop("open", {}))
        self.engine = Engine(self.game, **options)
        self.writer = BatchWriter(self.game.store, self.game.last_seq, self.game.spool)
        self.first = self.engine.opened()
        self.engine.complete()
        self.batches = 0

    @property
    def state(self):
        return self.engine.fold.state

    def settle(self, *outputs: Output) -> Output:
        """Store every batch due (and fold the game again when asked) until nothing is due; every effect merged."""
        done = list(outputs)
        while True:
            while any(o.refold for o in done[-1:]):
                done.append(self.engine.refolded(self.engine.refold_job()()))
            batch = self.engine.next_batch()
            if batch is None:
                break
            self.batches += 1
            done.append(self.engine.committed(batch.id, self.writer.write(batch.items)))
        return merged(done)

    def send(self, cmd: cmds.Command) -> Output:
        return self.settle(self.engine.command(cmd))

    def submit(self, type_: str, fields: dict, source: str = "gm") -> Output:
        return self.send(cmds.Submit(type_, fields, source))

    def hear(self, *items) -> Output:
        return self.settle(self.engine.heard(list(items)))

    def frame(self, frame: bytes, gateway: int = 1, rssi: float = -90, snr: float = 7.5) -> Output:
        return self.hear(FrameHeard("test", gateway, rssi, snr, frame))

    def at(self, t: int) -> Output:
        """The game clock moved to ``t``: what falls due fires."""
        self.clock.advance_to(t)
        return self.send(cmds.Poll())

    def delta(self):
        return self.engine.publish()

    def events(self):
        return [e for _, e in self.game.store.log.events()]

    def close(self) -> None:
        self.writer.close()
        self.game.store.close()


def owner(url, tmp_path, name):
    """An engine on ``url`` that runs the timers whatever the lock says (as two owners did around an outage)."""
    pump = Pump(url, VirtualClock(0), open={"queue_path": str(tmp_path / f"{name}.queue")})
    pump.engine.authority.state = OWNER
    return pump
