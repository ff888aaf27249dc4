"""Alarm triage (pure): classes, repeats merged with counts, at most 3 rows, acknowledgement by class."""

import pytest

from controlroom.game.alarms import GAME, LINK, SAFETY, SECURITY, Alarm, AlarmBoard, merge_key


def test_each_kind_has_its_class():
    assert Alarm("stopp:S1", "stopp", "", 0).cls == SAFETY
    assert Alarm("i", "injury", "", 0).cls == SAFETY
    for kind in ("death", "marshal_silent", "stopp_overdue"):
        assert Alarm("x", kind, "", 0).cls == GAME
    for kind in ("rejected_auth", "rejected_replay", "rejected_unknown_device"):
        assert Alarm("x", kind, "", 0).cls == SECURITY
    assert Alarm("x", "gateway_lost", "", 0).cls == LINK


def test_repeats_of_one_subject_merge_into_one_row_with_a_count():
    board = AlarmBoard()
    row, new = board.add(Alarm("rejected_replay:1005:3000", "rejected_replay", "frame 7 of 1005", 3000))
    assert new
    row, new = board.add(Alarm("rejected_replay:1005:4000", "rejected_replay", "frame 8 of 1005", 4000))
    assert not new and row.count == 2 and row.latest.message == "frame 8 of 1005"
    _, new = board.add(Alarm("rejected_replay:2008:4100", "rejected_replay", "frame 1 of 2008", 4100))
    assert new and len(board) == 2                           # another device: its own row
    assert merge_key(Alarm("stopp:S1", "stopp", "", 0)) != merge_key(Alarm("stopp:S2", "stopp", "", 0))
    # The same id raised again (an update) replaces, it does not count twice.
    board.add(Alarm("rejected_replay:1005:4000", "rejected_replay", "again", 4000))
    assert board.rows()[-1].count == 2 or board.rows()[0].count == 2


def test_safety_first_then_newest_and_at_most_three_rows():
    board = AlarmBoard()
    board.add(Alarm("gateway:g1:1000", "gateway_lost", "g1", 1000))
    board.add(Alarm("stopp:S1", "stopp", "STOPP S1", 2000))
    board.add(Alarm("rejected_auth:3002:3000", "rejected_auth", "forged", 3000))
    board.add(Alarm("silent:marshal:M4:4000", "marshal_silent", "M4", 4000))
    board.add(Alarm("stopp:S2", "stopp", "STOPP S2", 5000))
    shown, more = board.visible(3)
    assert [r.key for r in shown] == ["stopp:S2", "stopp:S1", "marshal_silent|silent:marshal:M4"]
    assert more == 2


def test_safety_one_by_one_others_per_class():
    board = AlarmBoard()
    board.add(Alarm("stopp:S1", "stopp", "", 1))
    board.add(Alarm("rejected_auth:1:2", "rejected_auth", "", 2))
    board.add(Alarm("rejected_replay:2:3", "rejected_replay", "", 3))
    board.add(Alarm("rejected_replay:2:4", "rejected_replay", "", 4))
    with pytest.raises(ValueError, match="one by one"):
        board.acknowledge_class(SAFETY)
    assert sorted(board.acknowledge_class(SECURITY)) == ["rejected_auth:1:2", "rejected_replay:2:3",
                                                        "rejected_replay:2:4"]
    assert [r.key for r in board.rows()] == ["stopp:S1"]
    assert board.acknowledge("stopp:S1") == ("stopp:S1",) and len(board) == 0


def test_acknowledged_elsewhere_leaves_the_row_or_lowers_its_count():
    board = AlarmBoard()
    board.add(Alarm("gateway:g1:1", "gateway_lost", "", 1))
    board.add(Alarm("gateway:g1:2", "gateway_lost", "", 2))
    assert board.remove_id("gateway:g1:1")
    assert board.rows()[0].count == 1 and board.rows()[0].ids == ("gateway:g1:2",)
    assert board.remove_id("gateway:g1:2") and len(board) == 0
    assert not board.remove_id("nothing")


def test_every_death_joins_one_row():
    board = AlarmBoard()
    for badge, t in ((1, 10), (2, 20), (11, 30)):
        board.add(Alarm(f"death:{badge}:{t}", "death", f"badge {badge} died", t))
    (row,) = board.rows()
    assert row.count == 3 and row.latest.message == "badge 11 died" and row.cls == GAME
    assert set(board.acknowledge_class(GAME)) == {"death:1:10", "death:2:20", "death:11:30"}
