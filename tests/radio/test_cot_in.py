"""CoT in: recorded ATAK and WinTAK position reports (XML, protobuf mesh and stream) decoded, matched, listened for."""

from __future__ import annotations

import random
import socket

import pytest
from tak_captures import ATAK_PLI_XML, WINTAK_PLI_MESH, WINTAK_PLI_STREAM, WINTAK_PLI_XML
from tak_helpers import free_port, wait_until

from controlroom.game.devices import VIA_TAK, DeviceInfo
from controlroom.radio.cot_in import MAX_MESSAGE, CotHeard, StreamSplitter, decode
from controlroom.radio.cot_udp import CotUdpLink, check_url
from controlroom.radio.link import HeardQueue, LinkState
from controlroom.radio.registry import kind_of, open_link
from controlroom.radio.tak_ingest import MAX_UNKNOWN, TakIngest

ATAK_TIME_MS = 1614457944771          # 2021-02-27T20:32:24.771Z
WINTAK_TIME_MS = 1581185444000        # 2020-02-08T18:10:44.000Z


def test_an_atak_position_report_in_xml():
    heard = decode(ATAK_PLI_XML, "tcp://server:8087")
    assert heard == CotHeard("tcp://server:8087", "ANDROID-deadbeef", "a-f-G-U-C", "JENNY", "m-g", 1.234567,
                             -3.141592, 9.9, 78, ATAK_TIME_MS, 0)
    assert heard.is_position


@pytest.mark.parametrize("data", [WINTAK_PLI_MESH, WINTAK_PLI_STREAM], ids=["mesh", "stream"])
def test_a_wintak_position_report_in_protobuf_reads_as_its_xml(data):
    proto = decode(data, "l")
    xml = decode(WINTAK_PLI_XML.strip(), "l")
    assert proto.proto == 1 and xml.proto == 0
    assert (proto.uid, proto.type, proto.callsign, proto.how, proto.battery, proto.time_ms) == (
        "aa0b0312-b5cd-4c2c-bbbc-9c4c70216261", "a-f-G-E-V-C", "Eliopoli HQ", "h-e", 100, WINTAK_TIME_MS)
    assert proto.lat == pytest.approx(43.97957317) and proto.lon == pytest.approx(-66.07737696)
    assert proto.ce == pytest.approx(9999999.0)
    assert (proto.uid, proto.type, proto.callsign, proto.how, proto.battery, proto.time_ms, proto.lat, proto.lon) == (
        xml.uid, xml.type, xml.callsign, xml.how, xml.battery, xml.time_ms, xml.lat, xml.lon)


def test_a_tcp_stream_is_split_into_its_messages_however_it_arrives():
    stream = ATAK_PLI_XML + WINTAK_PLI_STREAM + b"\n" + WINTAK_PLI_XML + WINTAK_PLI_STREAM
    expected = [ATAK_PLI_XML, WINTAK_PLI_STREAM, WINTAK_PLI_XML.strip(), WINTAK_PLI_STREAM]
    for sizes in ([len(stream)], [1] * len(stream), None):
        splitter, got, at = StreamSplitter(), [], 0
        rng = random.Random(3)
        while at < len(stream):
            n = sizes.pop(0) if sizes else rng.randint(1, 97)
            got += splitter.feed(stream[at:at + n])
            at += n
        assert [g.strip() for g in got] == expected
        assert [decode(g, "l").uid for g in got] == ["ANDROID-deadbeef"] + ["aa0b0312-b5cd-4c2c-bbbc-9c4c70216261"] * 3


def test_junk_on_the_stream_is_passed_over_and_never_breaks_the_reading():
    rng = random.Random(5)
    splitter = StreamSplitter()
    for _ in range(300):
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 400)))
        for message in splitter.feed(junk):
            decode(message, "l")                  # whatever it makes of it, it does not raise
    splitter.feed(b"<event" + b" " * (3 * MAX_MESSAGE))          # no end in sight: thrown away, not kept
    assert len(splitter.buffer) <= 2 * MAX_MESSAGE
    splitter.buffer.clear()
    assert splitter.feed(ATAK_PLI_XML) == [ATAK_PLI_XML]
    assert decode(b"\xbf\x01\xbf\xff\xff\xff", "l") is None and decode(b"<event/>", "l") is None
    assert decode(b"<not xml", "l") is None


MARSHAL = DeviceInfo(5, "marshal", "Marshal West", tak_uid="ANDROID-deadbeef")
BY_CALLSIGN = DeviceInfo(6, "marshal", "Marshal East", tak_callsign="eliopoli hq")


def test_a_registered_marshals_phone_is_a_position_marked_as_come_by_tak():
    ingest = TakIngest({5: MARSHAL, 6: BY_CALLSIGN})
    got = ingest.receive(decode(ATAK_PLI_XML, "tcp://s:8087"), 1000)
    assert got.verdict == "accepted" and got.device is MARSHAL
    assert got.event == ("position", {"device": 5, "lat": 1.234567, "lon": -3.141592, "fix": 1, "battery": 78},
                         "marshal:5")
    assert (got.radio.device, got.radio.counter, got.radio.via) == (5, ATAK_TIME_MS, VIA_TAK)
    assert ingest.receive(decode(ATAK_PLI_XML, "cot-udp://0.0.0.0:4242"), 1500).verdict == "duplicates"
    by_callsign = ingest.receive(decode(WINTAK_PLI_MESH, "cot-udp://0.0.0.0:4242"), 2000)
    assert by_callsign.verdict == "accepted" and by_callsign.event[2] == "marshal:6"
    assert set(ingest.view()["known"]) == {"ANDROID-deadbeef", "aa0b0312-b5cd-4c2c-bbbc-9c4c70216261"}


def test_unknown_phones_are_listed_not_stored_and_chat_and_own_objects_are_passed_over():
    ingest = TakIngest({5: MARSHAL})
    for i in range(MAX_UNKNOWN + 50):
        heard = CotHeard("l", f"ANDROID-{i}", "a-f-G-U-C", f"X{i}", "m-g", 58.0, 26.0, None, None, i, 0)
        assert ingest.receive(heard, i).verdict == "unknown_uid"
    unknown = ingest.view()["unknown"]
    assert len(unknown) == MAX_UNKNOWN and "ANDROID-249" in unknown and "ANDROID-0" not in unknown
    chat = CotHeard("l", "GeoChat.ANDROID-1.All Chat Rooms.x", "b-t-f", "JENNY", "h-g-i-g-o", 58.0, 26.0)
    assert ingest.receive(chat, 1).verdict == "not_a_position"
    own = CotHeard("l", "controlroom.game.group.Wolves", "a-f-G-U-C", "Wolves", "m-g", 58.0, 26.0)
    assert ingest.receive(own, 1).verdict == "own"
    assert ingest.counts["accepted"] == 0 and ingest.counts["heard"] == MAX_UNKNOWN + 52


def test_phones_on_the_network_are_heard_through_a_cot_udp_port():
    port = free_port()
    url = f"cot-udp://127.0.0.1:{port}"
    queue = HeardQueue()
    link = open_link(url, queue)
    assert isinstance(link, CotUdpLink) and kind_of(url).name == "TAK listener"
    link.start()
    try:
        assert wait_until(lambda: any(isinstance(i, LinkState) and i.state == "connected" for i in queue._items), 10)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for data in (WINTAK_PLI_MESH, ATAK_PLI_XML, b"\x00junk"):
                s.sendto(data, ("127.0.0.1", port))
        assert wait_until(lambda: link.heard == 2 and link.unreadable == 1, 10)
    finally:
        link.request_stop()
        assert link.join(10)
    heard = [i for i in queue.take() if isinstance(i, CotHeard)]
    assert [(h.uid, h.proto, h.link) for h in heard] == [("aa0b0312-b5cd-4c2c-bbbc-9c4c70216261", 1, url),
                                                         ("ANDROID-deadbeef", 0, url)]


@pytest.mark.parametrize("url", ["cot-udp://", "cot-udp://host", "cot-udp://:4242", "cot-udp://h:port"])
def test_a_cot_udp_port_without_an_address_and_port_is_refused_in_words(url):
    with pytest.raises(ValueError, match="cot-udp://ADDRESS:PORT"):
        check_url(url)
