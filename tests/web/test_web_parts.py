"""The web view's parts alone: addresses, expiry, language, tokens, rate limits, a phone's queue, the view kept."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from controlroom.engine import commands as cmds
from controlroom.game.alarms import Alarm
from controlroom.store.invites import Invite
from controlroom.web.access import AccessBook, RateLimit
from controlroom.web.forms import FormError, command_for
from controlroom.web.hub import QUEUE_MAX, Client, Hub
from controlroom.web.invites import WEB_DEVICE_BASE, hash_token, new_token, parse_address, parse_expires
from controlroom.web.words import choose_language, words
from tests.support.engine_pump import Pump, new_game


def invite(id_=1, role="marshal", badge=None, revoked=None, expires=None, token="tok"):
    return Invite(id_, f"{role} {id_}", role, hash_token(token), badge, 0, expires, revoked)


def test_addresses():
    assert parse_address(None) == ("127.0.0.1", 8080)
    assert parse_address("8081") == ("127.0.0.1", 8081)
    assert parse_address(":9000") == ("127.0.0.1", 9000)
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address("[::1]:8443") == ("::1", 8443)
    assert parse_address("tent.local") == ("tent.local", 8080)
    for bad in ("a b", "1.2.3.4:99999", "host:port"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_expiry_is_the_next_time_the_clock_shows():
    now = dt.datetime(2026, 7, 4, 14, 0).astimezone()
    later = parse_expires("18:30", now)
    assert dt.datetime.fromtimestamp(later / 1000).astimezone() == now.replace(hour=18, minute=30)
    tomorrow = parse_expires("09:15", now)
    assert dt.datetime.fromtimestamp(tomorrow / 1000).astimezone().day == 5
    for bad in ("25:00", "12", "noon"):
        with pytest.raises(ValueError):
            parse_expires(bad, now)


def test_the_language_from_the_phone_or_the_switch():
    assert choose_language("et-EE,et;q=0.9,en;q=0.8") == "et"
    assert choose_language("en-GB,en;q=0.9,et;q=0.8") == "en"
    assert choose_language("fi, et;q=0.5") == "et"
    assert choose_language("de") == "en" and choose_language(None) == "en"
    assert choose_language("et", asked="en") == "en"
    assert words("et")["check_in"] == "Registreeri" and words("en")["check_in"] == "Check in"


def test_tokens_are_long_random_and_looked_up_by_hash():
    token = new_token()
    assert len(token) >= 32 and token != new_token()
    book = AccessBook()
    book.load([invite(1, token=token), invite(2, token="old", revoked=5), invite(3, token="late", expires=10)])
    assert book.lookup(token)[0].id == 1
    assert book.lookup("old") == (None, "revoked")
    assert book.lookup("late", now_ms=11) == (None, "expired")
    assert book.lookup("nope") == (None, "unknown") and book.lookup(None) == (None, "unknown")
    inv = book.lookup(token)[0]
    assert book.csrf_ok(inv, book.csrf(inv)) and not book.csrf_ok(inv, "x") and not book.csrf_ok(inv, None)


def test_the_rate_limit_slides():
    limit = RateLimit(3, 60)
    assert [limit.allow(1, now=t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert limit.allow(2, now=3)                    # per invite
    assert limit.allow(1, now=61)                   # the window moved on


def test_a_phone_that_falls_behind_gets_the_latest_view_only():
    async def run():
        client = Client(invite(), "viewer")
        for i in range(QUEUE_MAX * 3):
            client.offer("view", str(i).encode())
        got = []
        while client.queue:
            got.append((await client.next(0.1))[1])
        return got

    got = asyncio.run(run())
    assert len(got) <= QUEUE_MAX and got[-1] == str(QUEUE_MAX * 3 - 1).encode()


def test_forms_become_the_reports_a_handset_sends():
    marshal = invite(4, "marshal", badge=101)
    make = command_for("report", {"form": 77, "action": "casualty", "kind": "bound", "badge": "102", "by": 103},
                       marshal, {})
    cmd = make(9)
    assert isinstance(cmd, cmds.FormReport)
    assert (cmd.request, cmd.type, cmd.fields, cmd.device, cmd.form) == (9, "bound", {"badge": 102, "by": 103},
                                                                         WEB_DEVICE_BASE + 4, 77)
    stopp = command_for("report", {"form": 0x12345, "action": "stopp", "reason": "injury"}, marshal, {})(1)
    assert stopp.fields == {"stopp": "W4-2345", "reason": "injury", "caller": 101}
    assert command_for("report", {"form": 5, "action": "lift", "stopp": "W4-2345"}, marshal, {"W4-2345": 1})(1).fields \
        == {"stopp": "W4-2345"}
    with pytest.raises(FormError) as lift_other:
        command_for("report", {"form": 5, "action": "lift", "stopp": "7-0001"}, marshal, {"7-0001": 1})
    assert lift_other.value.status == 403
    for bad in ({"action": "casualty", "kind": "down", "badge": 1}, {"form": 2**60, "action": "valhalla", "badge": 1},
                {"form": 1, "action": "casualty", "kind": "cared_for", "badge": 1},
                {"form": 1, "action": "stopp", "reason": "boredom"}, {"form": 1, "action": "dance"}):
        with pytest.raises(FormError):
            command_for("report", bad, marshal, {})
    with pytest.raises(FormError):
        command_for("ack", {"form": 1, "alarm": "storage:open"}, invite(5, "safety"), {})


def test_the_view_kept_from_the_window_deltas(tmp_path):
    pump = Pump(new_game(tmp_path / "view.crgame"))
    try:
        hub = Hub()
        hub.put("delta", pump.first)                      # the opening, as the window gets it (full)
        pump.submit("down", {"badge": 1}, "marshal:7")
        pump.submit("died", {"badge": 11}, "marshal:7")
        out = pump.send(cmds.CallStopp("injury"))
        hub.put("delta", pump.delta())
        for alarm in out.alarms:
            hub.put("alarm", alarm)
        hub.put("alarm", Alarm("gateway:x:1", "gateway_lost", "a gateway", 1))     # not a safety alarm
        hub._drain()                                      # (no loop: the web thread's step, by hand)
        viewer, safety, valhalla = (hub.view.snapshot(r) for r in ("viewer", "safety", "valhalla"))
        assert [p["badge"] for p in viewer["dying"]] == [1] and viewer["dying"][0]["left"] > 0
        assert [s["stopp"] for s in viewer["stopps"]] == ["GM1"] and "alarms" not in viewer
        assert [a["id"] for a in safety["alarms"]] == ["stopp:GM1"] and safety["alarms"][0]["kind"] == "injury"
        assert [p["badge"] for p in valhalla["dead"]] == [11] and "stopps" not in valhalla
        assert viewer["sides"]["South"]["dead"] == 1
        pump.send(cmds.Acknowledge("stopp:GM1"))
        hub.put("delta", pump.delta())
        hub._drain()
        assert hub.view.snapshot("safety")["alarms"] == []
    finally:
        pump.close()
