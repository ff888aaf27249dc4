"""A character's condition and the records GameState keeps: warnings, deadlines, scenarios, STOPPs."""

from __future__ import annotations

from dataclasses import dataclass, field

from controlroom.game.roster import Member
from controlroom.i18n import Text
from controlroom.rules.armour import ArmourPoints
from controlroom.rules.profile import RulesProfile

ACTIVE = "active"
UNCONSCIOUS = "unconscious"
KNOCKED_OUT = "knocked_out"
DEAD = "dead"
CONDITIONS = (ACTIVE, UNCONSCIOUS, KNOCKED_OUT, DEAD)

DIES, WAKES, REGAINS_HP, RESPAWNS, STOPP_OVERDUE = "dies", "wakes", "regains_hp", "respawns", "stopp_overdue"


@dataclass(slots=True, eq=False)
class RuleWarning:
    """An event the rules forbid (or a timer that no longer applies): logged, not applied.

    ``message`` is said in the language spoken when it was folded (``language``), the first time it is read:
    saying it as it is folded took 29 µs a warning, a third of a 200,000-event fold, and most warnings are
    never read.  ``wording`` is what it says, to be said in another language (a marshal's answer, in the
    marshals' language), kept packed (``Text.packed``: plain tuples, which the collector does not walk).  A
    fold snapshot keeps the message said, not the wording: a warning read back from one is said as it was.
    Two warnings are equal when they say the same of the same event.  Not to be changed once made (not a
    frozen dataclass only because its making took three times as long, and a fold makes thousands).
    """

    index: int
    t: int
    type: str
    badge: int | None
    code: str
    said: str | None = field(metadata={"read": "message"})     # None until read (a snapshot keeps ``message``)
    words: tuple | None = field(default=None, metadata={"kept": False})
    language: str | None = field(default=None, metadata={"kept": False})

    @property
    def message(self) -> str:
        said = self.said
        if said is None:
            assert self.words is not None           # (a warning is made said, or with its words)
            said = Text.render_packed(self.words, self.language)
            self.said = said            # said once; the same text whichever thread says it
        return said

    @property
    def wording(self) -> Text | None:
        return None if self.words is None else Text.unpack(self.words)

    def _key(self) -> tuple:
        return (self.index, self.t, self.type, self.badge, self.code, self.message)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleWarning) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"RuleWarning(index={self.index}, t={self.t}, type={self.type!r}, badge={self.badge}, "
                f"code={self.code!r}, message={self.message!r})")


@dataclass(frozen=True, slots=True)
class Deadline:
    """A pending rule deadline.  ``due`` is on the timeline, None while a STOPP holds it."""

    kind: str
    due: int | None
    remaining: int
    badge: int | None = None
    stopp: str | None = None


@dataclass(slots=True)
class Scenario:
    name: str = "(no scenario started)"
    respawn: bool = False
    respawn_ms: int = 0
    started: int = 0
    ended: int | None = None


@dataclass(slots=True)
class Stopp:
    id: str
    called: int
    covered: frozenset[int]
    groups: tuple[str, ...]
    badges: tuple[int, ...]
    caller: int | None
    reason: str
    lat: float | None = None
    lon: float | None = None
    lifted: int | None = None
    trivial: bool = False
    overdue_alerted: bool = False


class Character:
    """One character's condition; mutated only by GameState."""

    __slots__ = (
        "member", "max_hp", "hp", "full_ap", "ap", "condition",
        "dying_at", "wake_at", "regen_at", "regen_period", "respawn_at",
        "bound", "carer", "patients", "deaths", "in_valhalla", "knockouts", "healed",
        "touches_used", "stops", "frozen_since", "frozen_ms", "armour",
    )

    def __init__(self, member: Member, profile: RulesProfile, max_hp: int | None = None,
                 full_ap: ArmourPoints | None = None) -> None:
        """``max_hp`` and ``full_ap``, when given, are the member's under ``profile`` (computed once per kind)."""
        self.member = member
        self.max_hp = member.max_hp(profile) if max_hp is None else max_hp
        self.full_ap: ArmourPoints = member.armour_points(profile) if full_ap is None else full_ap
        # The armour as last recorded (the roster's, then each armour_set): what the weapon-check desk shows.
        self.armour: dict = {"helmet": member.helmet, "pieces": tuple(member.armour),
                             "inadequate": member.inadequate, "ap": member.ap, "measures": {}}
        self.deaths = 0
        self.knockouts = 0
        self.healed = 0
        self.stops = 0
        self.frozen_since = 0
        self.frozen_ms = 0
        self.patients: set[int] = set()
        self.reset()

    def reset(self) -> None:
        """Full hit and armour points, conscious, no timers (scenario start, respawn)."""
        self.hp = self.max_hp
        self.ap = self.full_ap
        self.condition = ACTIVE
        # Deadlines on this character's clock (None: none pending).
        self.dying_at: int | None = None
        self.wake_at: int | None = None
        self.regen_at: int | None = None
        self.respawn_at: int | None = None
        self.regen_period = 0
        self.bound = False
        self.carer: int | None = None
        self.in_valhalla = False
        self.touches_used = 0

    @property
    def badge(self) -> int:
        return self.member.badge

    def clock(self, t: int) -> int:
        """This character's game clock at timeline time ``t``."""
        if self.stops:
            return self.frozen_since - self.frozen_ms
        return t - self.frozen_ms

    def due(self, at: int | None) -> int | None:
        """Timeline time of a deadline kept on this character's clock (None while stopped)."""
        if at is None or self.stops:
            return None
        return at + self.frozen_ms
