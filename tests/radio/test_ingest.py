"""The station's frame classification: accepted, copies, replays, forgeries, strangers."""

from controlroom.game.devices import DeviceInfo
from controlroom.radio import codec
from controlroom.radio.ingest import Ingest

K_M = bytes(range(16))
K_T = bytes(range(16, 32))
DEVICES = {
    7: DeviceInfo(7, "marshal", "M7", key=K_M),
    8: DeviceInfo(8, "tracker", "T8", group="Wolves", key=K_T),
}


def casualty(counter, badge=101, kind="down", key=K_M, device=7):
    return codec.encode_casualty(key, device, counter, badge, kind)


def test_a_valid_frame_becomes_an_event_and_is_acknowledged():
    ing = Ingest(DEVICES)
    out = ing.receive(casualty(10), 1, -90, 7.0, 0)
    assert out.verdict == "accepted"
    assert out.event == ("down", {"badge": 101}, "marshal:7")
    ack = codec.decode_frame(out.ack)
    assert ack.type == "ack" and ack.fields == {"acked_device": 7, "acked_counter": 10}
    assert codec.verify(ack, K_M)


def test_copies_from_other_gateways_merge_and_keep_the_best_signal():
    ing = Ingest(DEVICES)
    frame = casualty(10)
    ing.receive(frame, 1, -110, 1.0, 0)
    out = ing.receive(frame, 2, -80, 9.0, 50)
    assert out.verdict == "duplicates" and out.event is None
    assert out.ack is None                     # the first acknowledgement went out 50 ms ago
    retry = ing.receive(frame, 1, -100, 3.0, 4_000)
    assert retry.verdict == "duplicates" and retry.ack is not None   # a retry is acknowledged again
    assert out.radio.rssi == -80 and out.radio.gateways == ("1", "2")
    assert ing.stats()["total"]["accepted"] == 1 and ing.stats()["2"]["duplicates"] == 1


def test_the_same_frame_much_later_is_a_replay():
    ing = Ingest(DEVICES)
    frame = codec.encode_position(K_T, 8, 5, 583800000, 267200000, 77, 1, 9)
    ing.receive(frame, 1, -90, 5.0, 0)
    out = ing.receive(frame, 1, -90, 5.0, 300_000)
    assert out.verdict == "rejected_replay" and out.ack is None


def test_a_stopp_retried_for_many_minutes_is_still_a_retry_then_a_replay():
    ing = Ingest(DEVICES)
    frame = codec.encode_stopp_called(K_M, 7, 5, 1, "injury", None, None)
    assert ing.receive(frame, 1, -90, 5.0, 0).verdict == "accepted"
    retry = ing.receive(frame, 1, -90, 5.0, 600_000)            # acks lost for ten minutes
    assert retry.verdict == "duplicates" and retry.ack is not None
    assert ing.receive(frame, 1, -90, 5.0, 3_600_000).verdict == "rejected_replay"


def test_an_old_counter_is_a_replay_but_a_little_out_of_order_is_fine():
    ing = Ingest(DEVICES)
    assert ing.receive(casualty(400), 1, -90, 5.0, 0).verdict == "accepted"
    assert ing.receive(casualty(399, badge=102), 2, -90, 5.0, 10).verdict == "accepted"
    # PROTOCOL.md section 5: counters up to 256 below the highest are new, further below stale.
    assert ing.receive(casualty(144, badge=104), 2, -90, 5.0, 15).verdict == "accepted"
    assert ing.receive(casualty(143, badge=103), 1, -90, 5.0, 20).verdict == "rejected_replay"


def test_a_forged_frame_is_rejected():
    ing = Ingest(DEVICES)
    out = ing.receive(casualty(10, key=bytes(16)), 1, -90, 5.0, 0)
    assert out.verdict == "rejected_auth" and "forged" in out.detail


def test_an_unknown_device_is_rejected():
    ing = Ingest(DEVICES)
    assert ing.receive(casualty(10, device=99), 1, -90, 5.0, 0).verdict == "rejected_unknown_device"


def test_a_tracker_may_not_report_casualties():
    ing = Ingest(DEVICES)
    out = ing.receive(casualty(10, key=K_T, device=8), 1, -90, 5.0, 0)
    assert out.verdict == "rejected_role"


def test_garbage_is_corrupt():
    ing = Ingest(DEVICES)
    assert ing.receive(b"\x21\x00", 1, -90, 5.0, 0).verdict == "rejected_corrupt"
    ing.reject_line(1, "checksum")
    assert ing.stats()["1"]["rejected_corrupt"] == 2 and ing.stats()["1"]["frames_total"] == 2


def test_a_tracker_position_names_its_group_and_degrees():
    ing = Ingest(DEVICES)
    frame = codec.encode_position(K_T, 8, 1, 583800000, 267200000, 77, 1, 9)
    out = ing.receive(frame, 1, -90, 5.0, 0)
    assert out.event == ("position", {"device": 8, "lat": 58.38, "lon": 26.72, "fix": 1, "sats": 9, "battery": 77},
                         "tracker:8")
    assert out.ack is None


def test_stopp_ids_are_the_handsets_own_numbers():
    ing = Ingest(DEVICES)
    out = ing.receive(codec.encode_stopp_called(K_M, 7, 5, 3, "injury", None, None), 1, -90, 5.0, 0)
    assert out.event == ("stopp_called", {"stopp": "7-3", "reason": "injury", "lat": None, "lon": None}, "marshal:7")
    assert codec.decode_frame(out.ack).type == "ack_stopp"


def test_a_restarted_station_still_knows_what_it_heard():
    ing = Ingest(DEVICES)
    ing.remember({7: 50}, {(7, 50), (7, 49)}, as_of_ms=1_000_000)
    retry = ing.receive(casualty(50), 1, -90, 5.0, 1_010_000)
    assert retry.verdict == "duplicates" and retry.ack is not None
    assert ing.receive(casualty(49), 1, -90, 5.0, 3_000_000).verdict == "rejected_replay"
    assert ing.receive(casualty(51), 1, -90, 5.0, 3_000_000).verdict == "accepted"


def test_version_2_brings_the_key_press_time_and_the_stopp_caller():
    ing = Ingest(DEVICES)
    out = ing.receive(codec.encode_stopp_called(K_M, 7, 20, 3, "injury", None, None, caller=321,
                                                pressed=1_780_000_000), 1, -90, 5.0, 0)
    assert out.verdict == "accepted" and out.pressed_ms == 1_780_000_000_000
    assert out.event[1]["caller"] == 321
    assert codec.decode_frame(out.ack).version == 1
    unknown = ing.receive(codec.encode_casualty(K_M, 7, 21, 101, "down", pressed=0), 1, -90, 5.0, 10)
    assert unknown.verdict == "accepted" and unknown.pressed_ms is None
    assert unknown.event == ("down", {"badge": 101}, "marshal:7")
    v1 = ing.receive(codec.encode_stopp_called(K_M, 7, 22, 4, "danger", None, None), 1, -90, 5.0, 20)
    assert v1.verdict == "accepted" and v1.pressed_ms is None and "caller" not in v1.event[1]


def test_the_role_is_checked_before_the_tag():
    ing = Ingest(DEVICES)
    assert ing.receive(casualty(10, key=bytes(16), device=8), 1, -90, 5.0, 0).verdict == "rejected_role"


def test_the_stations_own_acks_heard_back_are_downlink_not_alarms():
    ing = Ingest(DEVICES)
    ack = ing.receive(casualty(10), 1, -90, 5.0, 0).ack
    heard = ing.receive(ack, 2, -60, 9.0, 100)
    assert heard.verdict == "downlink_heard" and heard.ack is None and heard.event is None
    fake = ing.receive(codec.encode_ack(bytes(16), 1, 5, 7, 10), 2, -60, 9.0, 200)
    assert fake.verdict == "rejected_role"                      # no station signed it: not an alarm either
    assert ing.stats()["2"]["downlink_heard"] == 1


def test_a_frame_is_never_acked_more_often_than_its_handset_can_have_sent_it():
    ing = Ingest(DEVICES)
    frame = casualty(10)
    ing.receive(frame, 1, -90, 5.0, 0)
    acks = [ing.receive(frame, 1, -90, 5.0, t).ack is not None for t in range(2_000, 300_000, 2_000)]
    assert sum(acks) == 7                                       # 8 tries of a casualty, the first acked
    stopp = codec.encode_stopp_called(K_M, 7, 11, 1, "danger", None, None)
    ing.receive(stopp, 1, -90, 5.0, 0)
    acks = sum(ing.receive(stopp, 1, -90, 5.0, t).ack is not None for t in range(500, 1_790_000, 500))
    assert 30 <= acks <= 36                                     # about one a minute for 30 minutes
    assert ing.receive(stopp, 1, -90, 5.0, 1_800_001).verdict == "rejected_replay"


def test_the_downlink_counter_is_reserved_in_blocks():
    from controlroom.radio.ingest import DownlinkCounter

    asked, block = [], DownlinkCounter.BLOCK

    def reserve(size):                  # the game's value, which another station has raised meanwhile
        asked.append(size)
        return 5 * block
    counter = DownlinkCounter(1000, 1002, reserve=reserve)
    assert [counter.take(7), counter.take(9)] == [1001, 1002] and asked == []
    assert counter.take(7) == 4 * block + 1 and asked == [block]       # the block reserved: past the other's
    assert counter.take(7) == 4 * block + 2 and counter.reserved == 5 * block


def test_a_downlink_counter_that_cannot_reserve_goes_on_counting(caplog):
    from controlroom.radio.ingest import DownlinkCounter

    def reserve(size):
        raise OSError("the server is gone")
    counter = DownlinkCounter(10, 10, reserve=reserve)
    assert counter.take(1) == 11 and counter.take(1) == 12        # no ack held back for storage
    assert "reserving the next block of downlink counters: the server is gone" in caplog.text


def test_security_alarms_are_one_row_per_kind_and_minute():
    from controlroom.game.alarms import SecurityFlood

    flood = SecurityFlood()
    shown = [flood.note("rejected_unknown_device", 1000 + i, f"device {1000 + i}", i * 10) for i in range(300)]
    rows = [a for a in shown if a is not None]
    assert len({a.id for a in rows}) == 1 and rows[0].count == 1
    last = flood.flush(3_000)[-1]
    assert last.id == rows[0].id and last.count == 300 and "300 frames from 300 unknown device(s)" in last.message
    later = flood.note("rejected_unknown_device", 5, "device 5", 61_000)
    assert later is not None and later.id != rows[0].id and later.count == 1


def test_a_counter_that_went_past_its_block_reserves_above_where_it_is():
    """Reserving failed once (the server gone), so the station counted on without a block; the next
    reservation that works is taken again until its block lies above the counter."""
    from controlroom.radio.ingest import DownlinkCounter

    block = DownlinkCounter.BLOCK
    game = [block]                                         # the game's value: one block reserved so far
    failing = [True]

    def reserve(size):
        if failing[0]:
            raise OSError("the server is gone")
        game[0] += size
        return game[0]
    counter = DownlinkCounter(0, block, reserve=reserve)
    counter.last = block                                   # its block used up
    assert counter.take(1) == block + 1                    # not reserved: counted on
    failing[0] = False
    counter.last = counter.reserved                        # that stretch used up too (2 blocks in)
    n = counter.take(1)
    assert n == game[0] - block + 1 and n > 2 * block and counter.reserved == game[0]


def test_old_frames_are_forgotten_but_not_looked_for_at_every_frame():
    """The table of frames heard is pruned of what the counter window judges alone; a busy game keeps more than
    the threshold within the last 30 minutes, and the pruning (a walk over every entry) then waits until the
    table has grown by a quarter instead of running at every frame."""
    trackers = {d: DeviceInfo(d, "tracker", f"T{d}", key=K_T) for d in range(100, 110)}
    ing = Ingest(trackers, forget_at=100)
    now = 0
    for counter in range(1, 61):                # 600 frames in 20 minutes: all within the retry window
        for d in trackers:
            now += 2_000
            frame = codec.encode_position(K_T, d, counter, 583800000, 267200000, 77, 1, 9)
            assert ing.receive(frame, 1, -90, 5.0, now).verdict == "accepted"
    assert len(ing.seen) == 600                  # nothing old enough to forget
    assert ing.prunes <= 10                      # 100, 125, 156 ... 476, 595: not at each of the 500 past 100
    now += 3_600_000                             # an hour later, 300 counters on: the old ones are forgotten
    for counter in range(361, 461):
        for d in trackers:
            now += 100
            ing.receive(codec.encode_position(K_T, d, counter, 583800000, 267200000, 77, 1, 9), 1, -90, 5.0, now)
    assert ing.prunes >= 11 and len(ing.seen) == 1_000 and (100, 1) not in ing.seen    # the last hour's only
    old = codec.encode_position(K_T, 100, 1, 583800000, 267200000, 77, 1, 9)
    assert ing.receive(old, 1, -90, 5.0, now).verdict == "rejected_replay"    # forgotten, still refused


def test_the_frames_heard_are_nothing_the_collector_walks():
    """The table of frames heard holds 90,000 entries in a busy game (the last 30 minutes at 50 frames a
    second); as objects, every full collection of the process walked them (a third of a second with the
    rest of the game, bench_memory).  Its entries are plain tuples the collector stops tracking, copies
    merged (best signal, every gateway) and acknowledgements counted as before."""
    import gc

    ing = Ingest({7: DeviceInfo(7, "marshal", "M7", key=K_M)})
    first = ing.receive(casualty(1), 1, -100, 1.0, 1_000)
    again = ing.receive(casualty(1), 2, -80, 6.0, 1_500)           # another gateway, better signal
    assert first.verdict == "accepted" and again.verdict == "duplicates"
    assert again.radio.gateways == ("1", "2") and again.radio.rssi == -80
    gc.collect()
    gc.collect()            # (a tuple is untracked once the tuples it holds are: the outer may be walked first)
    assert len(ing.seen) == 1 and not any(gc.is_tracked(v) for v in ing.seen.values())
    assert ing.best(first.radio) == again.radio
    third = ing.receive(casualty(1), 3, -90, 2.0, 9_000)          # a retry 8 s on: acknowledged again
    assert third.radio.gateways == ("1", "2", "3") and third.radio.rssi == -80 and third.ack is not None
