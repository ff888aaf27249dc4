"""A fired rule deadline's identity in the log, so that each is stored once per game, whoever fires it.

A deadline fired by the rule timers (``source == "timer"``) is known by its
kind, whom it is about and when it fell due: ``died|1395||1470428``.  The
log refuses a second event with the identity of one stored and not taken
back, in the transaction that appends it (stations of a shared game append
one at a time), as it refuses a radio frame stored before.  A deadline the
timer owner took back (a ``retracted`` correction: a late report changed the
game) may fire again with the same identity, at its new place.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from controlroom.game.events import SOURCE_TIMER, Event
from controlroom.store.models import EventRow, table_of

EVENTS = table_of(EventRow)


def timer_key(event: Event) -> str | None:
    """The identity of a fired deadline (None for any other event)."""
    if event.source != SOURCE_TIMER or event.type == "retracted":
        return None
    data = event.data
    return f"{event.type}|{data.get('badge', '')}|{data.get('stopp', '')}|{event.t}"


def retracts(event: Event) -> int | None:
    """The seq a ``retracted`` event takes back (None for any other event)."""
    if event.type != "retracted":
        return None
    seq = event.data.get("seq")
    return int(seq) if isinstance(seq, int) else None


def live_keys(conn: Connection, keys: Iterable[str]) -> dict[str, int]:
    """Which of these identities are stored and not taken back: {identity: seq}."""
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    c = EVENTS.c
    found: dict[int, str] = {}
    for i in range(0, len(wanted), 500):
        q = sa.select(c.seq, c.timer_key).where(c.timer_key.in_(wanted[i:i + 500]))
        found.update((seq, key) for seq, key in conn.execute(q))
    if not found:
        return {}
    taken_back: set[int] = set()
    seqs = sorted(found)
    for i in range(0, len(seqs), 500):
        back = sa.select(c.retracts).where(c.retracts.in_(seqs[i:i + 500]))
        taken_back.update(r for (r,) in conn.execute(back))
    return {key: seq for seq, key in found.items() if seq not in taken_back}
