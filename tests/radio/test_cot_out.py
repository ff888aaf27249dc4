"""CoT out: the battle as TAK objects (the issue's table), each event valid and round-tripped, sent at its pace."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from datetime import datetime

import pytest

from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.tak_settings import TakSettings, settings_from_json
from controlroom.game.views import make_delta
from controlroom.geo.places import Place
from controlroom.radio import tak_objects as objs
from controlroom.radio.cot import to_xml
from controlroom.radio.tak_feed import FeedInbox, Pending, TakFeed
from controlroom.radio.tak_link import LatestQueue
from tests.support.cot_schema import check, problems, round_trip

ROSTER = [Member(1, "Aldo", "North", "Wolves"), Member(2, "Birgit", "North", "Wolves"),
          Member(3, "Carl", "North", "Wolves"), Member(11, "Gerd", "South", "Ravens"),
          Member(12, "Hilde", "South", "Ravens"), Member(21, "Ivo", "East", "Hundid")]
DEVICES = {"tracker:31": {"role": "tracker", "label": "T31", "group": "Wolves", "engine": None, "tak": None},
           "tracker:32": {"role": "tracker", "label": "T32", "group": "Ravens", "engine": None, "tak": None},
           "tracker:33": {"role": "tracker", "label": "ram", "group": None, "engine": "Ram", "tak": None},
           "marshal:7": {"role": "marshal", "label": "Marshal North", "group": None, "engine": None, "tak": None},
           "marshal:8": {"role": "marshal", "label": "Phone", "group": None, "engine": None, "tak": "ANDROID-1"}}
PLACES = [Place("Fort", 58.3817, 26.7135), Place("Valhalla", 58.3761, 26.7318), Place("HQ", 58.3790, 26.7200)]
SETTINGS = TakSettings({"North": "f", "South": "h"}, {"South": "Cyan"}, every_s=5.0)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def position(t, source, lat, lon, battery=None):
    device = int(source.split(":")[1])
    return make_event(t, "position", source, device=device, lat=lat, lon=lon, fix=1, battery=battery)


class Battle:
    """A game state and a TAK feed fed its deltas as the window is."""

    def __init__(self, settings=SETTINGS, places=PLACES) -> None:
        self.state = GameState(ROSTER)
        self.clock = Clock()
        self.feed = TakFeed("Test game", settings, places, clock=self.clock)
        self.inbox = FeedInbox()
        self.inbox.put_devices(DEVICES)
        self.inbox.put_delta(make_delta(self.state, (), (), full=True))

    def apply(self, *events) -> None:
        for e in events:
            self.state.apply(e)
        badges = {e.data["badge"] for e in events if "badge" in e.data}
        stopps = {e.data["stopp"] for e in events if "stopp" in e.data}
        self.inbox.put_delta(make_delta(self.state, badges, stopps))

    def due(self, seconds: float = 0.0):
        self.clock.now += seconds
        self.feed.apply(self.inbox.take())
        return {c.uid: c for c in self.feed.due()}


@pytest.fixture
def battle():
    b = Battle()
    b.apply(position(1000, "tracker:31", 58.3800, 26.7200), position(1000, "tracker:32", 58.3810, 26.7250),
            position(1000, "tracker:33", 58.3790, 26.7150), position(1000, "marshal:7", 58.3805, 26.7210, 80),
            position(1000, "marshal:8", 58.3806, 26.7211))
    return b


def uid(kind, name):
    return f"{objs.uid_prefix('Test game')}{kind}.{objs.uid_part(name)}"


def test_every_object_is_a_valid_cot_event_that_survives_takproto(battle):
    battle.apply(make_event(2000, "down", "marshal:7", badge=1), make_event(2500, "died", "marshal:7", badge=11,
                                                                             cause="bled_out"))
    battle.apply(make_event(3000, "stopp_called", "marshal:7", stopp="GM1", reason="injury", lat=58.381, lon=26.72),
                 make_event(3000, "stopp_called", "gm", stopp="GM2", reason="danger"))
    sent = battle.due()
    battle.apply(make_event(9000, "stopp_lifted", "gm", stopp="GM1"))
    sent.update({f"{u}@2": c for u, c in battle.due(10).items()})
    types = sorted({c.type for c in sent.values()})
    assert types == ["a-f-G-U-C", "a-h-G-U-C", "a-n-G-E-W", "b-a-o-can", "b-a-o-tbl", "b-m-p-s-m", "b-r-f-h-c",
                     "t-x-d-d"]
    for cot in [*sent.values(), objs.place_cot(battle.feed.prefix, PLACES[2])]:
        xml = to_xml(cot)
        check(xml)
        round_trip(xml)


def test_the_groups_engines_marshals_valhalla_and_stopps_as_the_issue_maps_them(battle):
    battle.apply(make_event(2000, "down", "marshal:7", badge=1), make_event(2000, "died", "marshal:7", badge=2,
                                                                             cause="permanent_kill"))
    battle.apply(make_event(2100, "valhalla_checkin", "marshal:7", badge=2),
                 make_event(2200, "siege_status", "marshal:7", engine="Ram", status="firing"))
    battle.apply(make_event(3000, "stopp_called", "gm", stopp="GM1", reason="injury", groups=("Ravens",)))
    sent = {uid: ET.fromstring(to_xml(c)) for uid, c in battle.due().items()}
    wolves = sent[uid("group", "Wolves")]
    assert wolves.get("type") == "a-f-G-U-C" and wolves.get("how") == "m-g"         # North: friend
    assert wolves.find("detail/contact").get("callsign") == "Wolves"
    # The sides in name order take the map's colours left free: East blue, North red (South's is set: cyan).
    assert wolves.find("detail/__group").get("name") == "Red"
    assert wolves.find("detail/remarks").text == "North: 1 up, 1 down, 1 dead"
    assert float(wolves.find("point").get("lat")) == pytest.approx(58.38)
    assert float(wolves.find("point").get("ce")) == pytest.approx(max(10, math.sqrt(2 * 20 / math.pi)), abs=0.05)
    ravens = sent[uid("group", "Ravens")]
    assert ravens.get("type") == "a-h-G-U-C" and ravens.find("detail/__group").get("name") == "Cyan"
    assert uid("group", "Hundid") not in sent                                       # no tracker: nowhere to show
    ram = sent[uid("engine", "Ram")]
    assert ram.get("type") == "a-n-G-E-W" and "firing" in ram.find("detail/remarks").text
    marshal = sent[uid("marshal", "marshal:7")]
    assert marshal.find("detail/contact").get("callsign") == "Marshal North"
    assert "battery 80 %" in marshal.find("detail/remarks").text
    assert uid("marshal", "marshal:8") not in sent               # a TAK phone is on the TAK network already
    valhalla = sent[f"{battle.feed.prefix}valhalla"]
    assert valhalla.get("type") == "b-m-p-s-m" and valhalla.find("detail/contact").get("callsign") == "Valhalla"
    assert valhalla.find("detail/remarks").text.startswith("Valhalla: 1 here of 1 dead")
    stopp = sent[uid("stopp", "GM1")]
    assert stopp.get("type") == "b-a-o-tbl" and stopp.find("detail/emergency").get("type") == "911 Alert"
    assert stopp.find("detail/contact").get("callsign") == "STOPP GM1"
    assert float(stopp.find("point").get("lat")) == pytest.approx(58.381)     # at Ravens, its group, no fix given
    assert stopp.get("how") == "h-e"
    assert sent[uid("stopp", "GM1") + ".casevac"].get("type") == "b-r-f-h-c"
    battle.apply(make_event(4000, "stopp_lifted", "gm", stopp="GM1"))
    after = battle.due(0.5)                                       # a type changed: at once, not N s later
    cancel = ET.fromstring(to_xml(after[uid("stopp", "GM1")]))
    assert cancel.get("type") == "b-a-o-can" and cancel.find("detail/emergency").get("cancel") == "true"
    gone = ET.fromstring(to_xml(after[uid("stopp", "GM1") + ".casevac-delete"]))
    assert gone.get("type") == "t-x-d-d" and gone.find("detail/link").get("uid") == uid("stopp", "GM1") + ".casevac"


def test_a_stopp_with_no_place_waits_at_hq_or_is_not_sent():
    b = Battle(places=[])
    b.apply(make_event(1000, "stopp_called", "gm", stopp="GM1", reason="danger"))
    assert b.due() == {} and b.feed.unplaced == {"GM1"}
    b = Battle()
    b.apply(make_event(1000, "stopp_called", "gm", stopp="GM1", reason="danger"))
    stopp = b.due()[uid("stopp", "GM1")]
    assert (stopp.lat, stopp.lon) == (PLACES[2].lat, PLACES[2].lon)


def _seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


@pytest.mark.parametrize("kind", ["group", "engine", "marshal", "valhalla", "stopp", "casevac"])
def test_each_kind_is_stale_after_its_own_time_and_refreshed_before(battle, kind):
    battle.apply(make_event(3000, "stopp_called", "gm", stopp="GM1", reason="injury", lat=58.38, lon=26.72))
    cots = battle.due()
    cot = next(c for c in cots.values() if battle.feed.entries[c.uid].kind == kind)
    event = ET.fromstring(to_xml(cot))
    assert _seconds(event.get("stale")) - _seconds(event.get("time")) == pytest.approx(objs.STALE_S[kind], abs=0.01)
    assert objs.REFRESH_S[kind] * 2 <= objs.STALE_S[kind]        # two refreshes may be lost before it goes stale


def test_each_object_at_most_once_per_every_seconds_and_again_before_it_is_stale(battle):
    battle.due()
    wolves, sent = uid("group", "Wolves"), 0
    for i in range(200):                                          # the tracker reports ten times a second for 20 s
        battle.apply(position(2000 + 100 * i, "tracker:31", 58.38 + i * 1e-5, 26.72))
        sent += wolves in battle.due(0.1)
    assert sent == 4                                              # every 5 s, however often it moves
    quiet = [battle.due(1.0).get(wolves) is not None for _ in range(600)]     # no report for ten minutes
    # Sent again every 60 s while its last fix is younger than its stale time (300 s), then left to go stale.
    assert [i for i, sent in enumerate(quiet) if sent] == [59, 119, 179, 239]


def test_the_inbox_merges_what_comes_while_the_sender_is_away(battle):
    inbox = FeedInbox()
    for i in range(5000):
        battle.state.apply(position(2000 + i, f"tracker:{31 + i % 3}", 58.38 + i * 1e-6, 26.72))
        battle.state.apply(position(2000 + i, "marshal:7", 58.38, 26.72 + i * 1e-6))
        inbox.put_delta(make_delta(battle.state, (), (), field={"partial": True, "positions": {
            f"tracker:{31 + i % 3}": battle.state.positions[f"tracker:{31 + i % 3}"],
            "marshal:7": battle.state.positions["marshal:7"]}}))
    pending = inbox.take()
    assert isinstance(pending, Pending) and len(pending.reports["positions"]) == 4
    assert pending.reports["positions"]["marshal:7"] == battle.state.positions["marshal:7"]


def test_the_latest_queue_keeps_one_event_per_uid_and_a_bounded_number_of_uids():
    q = LatestQueue(limit=3)
    for i in range(1000):
        q.put(f"u{i % 2}", b"%d" % i)
    assert len(q) == 2 and q.items["u0"] == b"998" and q.items["u1"] == b"999"
    for i in range(10):
        q.put(f"v{i}", b"x")
    assert len(q) == 3 and q.dropped == 9
    uid_, data = q.pop()
    q.put_back(uid_, data)
    assert q.pop() == (uid_, data)


def test_the_settings_kept_with_the_game_read_back():
    text = TakSettings({"North": "f"}, {"North": "Dark Blue"}, "tcp://10.0.0.5:8087", 2.0).to_json()
    back = settings_from_json(text)
    assert back.affiliation_of("North") == "f" and back.affiliation_of("Elsewhere") == "n"
    assert back.colours_for(["North", "South"]) == {"North": "Dark Blue", "South": "Blue"}
    assert back.server == "tcp://10.0.0.5:8087" and back.every_s == 2.0


@pytest.mark.parametrize("bad, what", [
    ({"type": "a f G"}, "type"), ({"how": ""}, "how"), ({"time": "yesterday"}, "xs:dateTime"),
    ({"lat": "95.0"}, "outside"), ({"group": "Pink"}, "team colour"), ({"version": "1.0"}, "version"),
])
def test_the_schema_check_finds_what_is_wrong(bad, what):
    xml = to_xml(objs.group_cot("p.", "Wolves", "North", (0, 58.0, 26.0, None, 1), (1, 0, 0), SETTINGS, "Blue"))
    event = ET.fromstring(xml)
    for name, value in bad.items():
        if name == "lat":
            event.find("point").set("lat", value)
        elif name == "group":
            event.find("detail/__group").set("name", value)
        else:
            event.set(name, value)
    found = problems(ET.tostring(event))
    assert found and any(what in p for p in found), found
