"""A phone's form report (commands.FormReport): stored once by its key, answered only after the commit and the fold."""

import pytest

from controlroom.engine import commands as cmds
from controlroom.game.devices import VIA_WEB
from controlroom.store.game import GameStore
from tests.support.engine_pump import Pump, new_game

WEB = 1_000_001            # an invite's number as a device


@pytest.fixture
def game(tmp_path):
    return new_game(tmp_path / "forms.crgame")


@pytest.fixture
def pump(game):
    p = Pump(game)
    yield p
    p.close()


def form(request, type_, fields, form_id, said=""):
    return cmds.FormReport(request, type_, fields, "web:Mari", WEB, form_id, said)


def stored_rows(path):
    with GameStore.open(path, create=False) as store:
        return [(r.event.type, r.event.data, r.event.source, r.device, r.counter) for r in store.log.rows()]


def test_the_answer_waits_for_the_commit_and_the_fold(pump, game):
    out = pump.engine.command(form(5, "down", {"badge": 1}, 77, "1 down"))
    assert out.answers == [] and out.tick                 # nothing said before it is stored
    batch = pump.engine.next_batch()
    assert stored_rows(game) == []
    out = pump.engine.committed(batch.id, pump.writer.write(batch.items))
    (answer,) = out.answers
    assert (answer.request, answer.stored, answer.counted, answer.again) == (5, True, True, False)
    assert answer.text == "stored: 1 down"
    assert pump.state.characters[1].condition == "unconscious"          # folded before it was answered
    assert stored_rows(game) == [("down", {"badge": 1}, "web:Mari", WEB, 77)]


def test_a_resent_form_is_stored_once_and_said_so(pump, game):
    first = pump.send(form(1, "died", {"badge": 2}, 9001))
    again = pump.send(form(2, "died", {"badge": 2}, 9001))
    assert [a.request for a in first.answers] == [1] and first.answers[0].text == "stored"
    (answer,) = again.answers
    assert answer.stored and answer.again and "sent already" in answer.text
    assert [r[:1] for r in stored_rows(game)] == [("died",)]
    assert pump.state.characters[2].deaths == 1


def test_a_resend_in_the_same_batch_is_stored_once(pump, game):
    out = pump.settle(pump.engine.command(form(1, "down", {"badge": 3}, 5)), pump.engine.command(form(2, "down",
                                                                                                     {"badge": 3}, 5)))
    assert sorted((a.request, a.again) for a in out.answers) == [(1, False), (2, True)]
    assert len(stored_rows(game)) == 1


def test_the_rules_verdict_in_words(pump):
    out = pump.send(form(3, "valhalla_checkin", {"badge": 1}, 12, "1 in Valhalla"))
    (answer,) = out.answers
    assert answer.stored and not answer.counted
    assert "is not dead: only the dead report to Valhalla" in answer.text


def test_a_bad_form_is_answered_at_once_and_nothing_stored(pump, game):
    out = pump.send(form(4, "down", {"badge": "x"}, 13))
    (answer,) = out.answers
    assert not answer.stored and "badge" in answer.text
    assert stored_rows(game) == []


def test_the_same_form_number_of_another_invite_is_another_report(pump, game):
    pump.send(form(1, "down", {"badge": 1}, 40))
    pump.send(cmds.FormReport(2, "down", {"badge": 2}, "web:Jaan", WEB + 1, 40))
    assert [r[3:] for r in stored_rows(game)] == [(WEB, 40), (WEB + 1, 40)]


def test_a_stopping_engine_does_not_take_forms(game):
    p = Pump(game)
    try:
        p.engine.stop()
        (answer,) = p.engine.command(form(1, "down", {"badge": 1}, 1)).answers
        assert not answer.stored
    finally:
        p.close()


def test_the_report_is_stored_as_come_by_the_web(pump, game):
    pump.send(form(1, "down", {"badge": 1}, 66))
    (stored,) = pump.delta().events
    assert stored.via == VIA_WEB and stored.event.source == "web:Mari"
