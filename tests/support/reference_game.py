"""The large reference game (1,000 players, 40,000 events, late reports and corrections) and the digest of its fold."""

from __future__ import annotations

import functools
import hashlib
import random

from controlroom.game import snapshot
from controlroom.game.devices import RadioMeta
from controlroom.game.events import make_event
from controlroom.game.state import GameState
from tests.support.played_game import played_game, roster


def _plain(value):
    """A value in a canonical, printable form: sets sorted, dicts by key, records as their fields."""
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return sorted((repr(k), _plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "__slots__") and not isinstance(value, (str, int, float)):
        # A record's fields, but those a fold snapshot does not keep (metadata "kept": False, e.g. a rule
        # warning's wording, kept only to be said again in another language): not the fold's result.
        # A field read through a property (metadata "read": a rule warning's message, said when first read) is
        # digested as that property's value.
        fields = getattr(value, "__dataclass_fields__", None)
        slots = ([f.metadata.get("read", n) for n, f in fields.items() if f.metadata.get("kept", True)] if fields
                 else value.__slots__)
        return [type(value).__name__] + [_plain(getattr(value, s)) for s in slots]
    if hasattr(value, "__dict__"):
        return [type(value).__name__] + _plain(vars(value))
    return repr(value)


def digest(state: GameState) -> str:
    """SHA-256 of everything a folded state holds but its inputs (the roster and the rules profile)."""
    skip = {"profile", "roster", "_handlers", "_event"}
    plain = [(name, _plain(value)) for name, value in sorted(snapshot.attributes(state).items())
             if name not in skip]
    return hashlib.sha256(repr(plain).encode()).hexdigest()


# The digest of the final state, recorded at commit 56b4d93 (before the fold's fast paths):
# e078e49a5a512d823edc1b349a2c38746ecb4ef45afe5cacf0aed4e9f723b22d.  Issue 37 added one rule warning, a report
# during a STOPP that covers the character (stopp_in_force): the battle has 30 of them, and without them its
# state still digests to the one recorded (checked when this was changed); with them, to
# d206591eb603acdf2f9c0bac888c0107f1feeeef78adcd1a68ed4045a22ba1e9.  Issue 40: a deadline counts at its own time,
# not at the latest time folded before it (GameState.apply): two deaths of this log (badges 621 and 628, each
# folded after a report with a later time) now count at their own times, 7,771,742 and 13,224,451 ms, where they
# counted 624 and 136 ms later; 621 then respawns earlier, checks in to Valhalla once more and bleeds out once
# more before the end, and six rule warnings of the old times go (3 target_dead, 2 stale_timer, 1
# already_in_valhalla).  The state also keeps the latest time folded and the latest report's (``latest``,
# ``_floor``).  Nothing else moved (compared field by field).
EXPECTED = "5cb28578047e444820b0a142eade37f787dcb743dc0744cda2e38a70a25bb372"


def _items(n_reports: int = 40_000):
    """The stored items: (event, radio meta, fold position) in log order."""
    members = roster(1000)
    reports = played_game(members, n_reports)
    rng = random.Random(3)
    items = []
    counters: dict[int, int] = {}
    for i, ev in enumerate(reports):
        if i % 3 == 0:                          # a tracker's position (one in eight without a fix)
            device = rng.randint(1, 300)
            counters[device] = counters.get(device, 0) + 1
            fix = rng.random() > 0.125
            fields = {"lat": 58.38 + rng.random() / 100, "lon": 26.72 + rng.random() / 100} if fix else {}
            pos_ev = make_event(ev.t, "position", f"tracker:{device}", device=device, battery=rng.randint(0, 100),
                                fix=int(fix), sats=rng.randint(0, 12), **fields)
            items.append((pos_ev, RadioMeta(device, counters[device]), None))
        if i % 17 == 0:
            device = rng.randint(301, 400)
            items.append((make_event(ev.t, "heartbeat", f"marshal:{device}", device=device, battery=50), None, None))
        if i % 5000 == 4999:                    # a late report: folded a few events back
            items.append((make_event(ev.t, "note", "gm", text=f"late {i}"), None, len(items) - 2.5))
        if i % 4000 == 3999:                    # a correction: a report a few events back was wrong
            items.append((make_event(ev.t, "retracted", "gm", seq=len(items) - 3, reason="wrong badge"), None, None))
        items.append((ev, None, None))
    return members, items


@functools.cache
def _game():
    return _items()
