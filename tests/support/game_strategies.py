"""Hypothesis strategies for game events over the test roster (tests.support.game_helpers.ROSTER)."""

from hypothesis import strategies as st

from tests.support.game_helpers import ROSTER

BADGES = [m.badge for m in ROSTER]
HEALERS = [m.badge for m in ROSTER if m.cls == "healer"]
GROUPS = sorted({m.group for m in ROSTER})

badge = st.sampled_from(BADGES + [999])
casualty = st.one_of(
    st.builds(lambda b, n, a: ("strike", {"badge": b, "count": n, "on_armour": a}),
              badge, st.integers(1, 4), st.booleans()),
    st.builds(lambda b, s: ("big_stone", {"badge": b, "on_shield": s}), badge, st.booleans()),
    st.builds(lambda b, s: ("knocked_out", {"badge": b, "saw_attacker": s}), badge, st.booleans()),
    st.builds(lambda b: ("down", {"badge": b}), badge),
    st.builds(lambda b: ("bound", {"badge": b}), badge),
    st.builds(lambda b, c: ("cared_for", {"badge": b, "carer": c}), badge, st.sampled_from(BADGES)),
    st.builds(lambda b: ("care_ended", {"badge": b}), badge),
    st.builds(lambda b: ("strenuous", {"badge": b}), badge),
    st.builds(lambda b: ("bandage_removed", {"badge": b}), badge),
    st.builds(lambda b, h: ("healer_touch", {"badge": b, "healer": h}), badge, st.sampled_from(HEALERS + [2])),
    st.builds(lambda b: ("died", {"badge": b}), badge),
    st.builds(lambda b: ("permanent_kill", {"badge": b}), badge),
    st.builds(lambda b: ("valhalla_checkin", {"badge": b}), badge),
    st.builds(lambda b: ("respawned", {"badge": b}), badge),
    st.builds(lambda b: ("woke", {"badge": b}), badge),
    st.builds(lambda b: ("hp_regained", {"badge": b}), badge),
    st.builds(lambda b, h: ("hp_set", {"badge": b, "max_hp": h}), badge, st.integers(1, 6)),
)
game_event = st.one_of(
    casualty,
    st.builds(lambda r: ("scenario_started", {"name": "s", "respawn": r, "respawn_time": 300}), st.booleans()),
    st.just(("scenario_ended", {})),
    st.builds(lambda i, g, c: ("stopp_called", {"stopp": f"S{i}", "groups": g, "caller": c}),
              st.integers(0, 2), st.lists(st.sampled_from(GROUPS), max_size=1), st.sampled_from(BADGES)),
    st.builds(lambda i, tr: ("stopp_lifted", {"stopp": f"S{i}", "trivial": tr}), st.integers(0, 2), st.booleans()),
)
