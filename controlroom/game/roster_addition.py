"""Players added to a game already under way, from a desk's roster file: what may be added, and why not.

``plan_addition`` checks the entries ``roster_csv.read_roster_entries`` read
against the roster the game has: a game under way only takes new players
(its history was folded with the stored ones), a group stays on its side,
and each group's healers stay within the ruleset's share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from controlroom.game.roster import Member, healer_excess
from controlroom.game.roster_csv import at_line, column_word, healer_problem, problem_order
from controlroom.i18n import translate
from controlroom.rules.profile import RulesProfile


@dataclass
class RosterAddition:
    """What adding a file's players to a game already open does: the new players, the badges already in
    the game as the file has them, and what stands in the way (nothing is added while a problem stands)."""

    new: list[Member] = field(default_factory=list)
    unchanged: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


_FIELDS = (("name", "name"), ("side", "side"), ("group", "group"), ("cls", "class"), ("paid", "paid"),
           ("helmet", "helmet"), ("armour", "armour"), ("hp", "hp"), ("ap", "ap"), ("inadequate", "inadequate"))


def plan_addition(entries: Iterable[tuple[int, Member]], present: Iterable[Member],
                  profile: RulesProfile) -> RosterAddition:
    """Adding the players of a file (``entries``: (line, member)) to a game whose roster is ``present``.

    A game under way only takes new players: a badge already in the game
    is fine when its line says exactly what the game has (the desk exported
    its whole list again), and a problem when it says anything else (the
    game's history was folded with the stored player).  A new player's group,
    when the game has it, must be on the same side; and each group's healers
    must stay within one per five paid members, counting the players already
    in the game.  Players of the game that the file leaves out stay.
    """
    stored = {m.badge: m for m in present}
    group_side = {m.group: m.side for m in stored.values()}
    out = RosterAddition()
    lines: dict[int, int] = {}
    for line, m in entries:
        old = stored.get(m.badge)
        if old is not None:
            if old == m:
                out.unchanged.append(m.badge)
            else:
                differ = ", ".join(column_word(word) for attr, word in _FIELDS
                                   if getattr(old, attr) != getattr(m, attr))
                out.problems.append(at_line(line, translate("roster",
                    "badge {badge} is already in the game as {name} ({group}), and this line differs in: {fields}; "
                    "a game under way only takes new players").format(
                        badge=m.badge, name=repr(old.name), group=old.group, fields=differ)))
            continue
        side = group_side.get(m.group)
        if side is not None and side != m.side:
            out.problems.append(at_line(line, translate(
                "roster", "group {group} is on side {side} in the game, not {other}").format(
                group=repr(m.group), side=repr(side), other=repr(m.side))))
            continue
        group_side.setdefault(m.group, m.side)
        lines[m.badge] = line
        out.new.append(m)
    before = {e.group: e.healers - e.limit for e in healer_excess(stored.values(), profile)}
    for excess in healer_excess([*stored.values(), *out.new], profile):
        if excess.healers - excess.limit <= before.get(excess.group, 0):
            continue                # no worse than the game has it already
        at = [lines[m.badge] for m in out.new if m.group == excess.group
              and profile.character_class(m.cls).healer_touches > 0]
        game = sum(1 for m in stored.values() if m.group == excess.group
                   and profile.character_class(m.cls).healer_touches > 0)
        text = healer_problem(excess, at) if at else excess.message()
        if game:
            text += translate("roster", " (and {count} already in the game)").format(count=game)
        out.problems.append(text)
    if out.problems:
        out.new = []
        out.problems.sort(key=problem_order)
    return out
