"""Property tests: no event sequence breaks the rules' invariants; STOPPs shift exactly."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controlroom.game.state import DEAD, GameState
from tests.support import game_strategies as strategies
from tests.support.game_helpers import ROSTER, Game

BADGES, HEALERS, GROUPS = strategies.BADGES, strategies.HEALERS, strategies.GROUPS
casualty, game_event = strategies.casualty, strategies.game_event
timed = st.lists(st.tuples(st.integers(0, 900_000), game_event), max_size=60)


def _play(steps):
    g = Game()
    t = 0
    for gap, (type_, fields) in steps:
        t += gap
        g.at(t, type_, **fields)
    return g


class _Checked(GameState):
    """A GameState whose every event folded, scripted or fired by a timer, is checked."""

    __slots__ = ()

    def apply(self, event):
        before = {b: (ch.condition, ch.deaths) for b, ch in self.characters.items()}
        warnings = super().apply(event)
        for b, ch in self.characters.items():
            cond, deaths = before[b]
            assert 0 <= ch.hp <= ch.max_hp, (event, ch.hp)
            assert 0 <= ch.ap.body and 0 <= ch.ap.helmet and ch.ap.total <= 5
            assert ch.condition != DEAD or ch.hp == 0
            # A death is counted once: only on the step from alive to dead.
            newly_dead = cond != DEAD and ch.condition == DEAD
            assert ch.deaths == deaths + (1 if newly_dead else 0), (event, cond, ch.condition)
        return warnings


def _checked(g):
    """The game's state checked at every event (its class changed: a GameState has no instance dict to patch)."""
    g.state.__class__ = _Checked
    return g


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(timed)
def test_no_sequence_breaks_hit_point_armour_or_death_invariants(steps):
    g = _checked(Game())
    t = 0
    for gap, (type_, fields) in steps:
        t += gap
        g.at(t, type_, **fields)
    g.run_to(t + 3_600_000)
    assert sum(ch.deaths for ch in g.state.characters.values()) == len(g.state.deaths)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    timed,
    st.integers(1, 3_600_000),
    st.lists(st.sampled_from(GROUPS), max_size=1),
)
def test_a_stopp_shifts_every_covered_deadline_by_its_length_and_no_other(steps, length, groups):
    # No STOPPs of their own in the sequence: the one under test is the only one.
    steps = [(gap, e) for gap, e in steps if not e[0].startswith("stopp")]
    t_stop = sum(gap for gap, _ in steps) + 1
    horizon = 4 * 3_600_000

    a = _play(steps)
    a.run_to(t_stop + horizon)

    b = _play(steps)
    b.at(t_stop, "stopp_called", stopp="X", groups=groups, source="gm")
    b.at(t_stop + length, "stopp_lifted", stopp="X", source="gm")
    b.run_to(t_stop + horizon + length)

    covered = {m.badge for m in ROSTER if not groups or m.group in groups}

    def timers(g):
        return sorted((e.data.get("badge"), e.t, e.type) for e in g.fired if e.type != "stopp_overdue")

    expected = sorted(
        (bd, t + length if (bd in covered and t > t_stop) else t, ty) for bd, t, ty in timers(a)
    )
    assert timers(b) == expected
