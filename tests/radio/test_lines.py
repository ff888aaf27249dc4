"""LineSplitter and GatewayLineDecoder: any chunking, garbage, bounded buffer."""

from hypothesis import given, settings
from hypothesis import strategies as st

from controlroom.radio import codec
from controlroom.radio.lines import MAX_LINE, REJECT_REASONS, GatewayLineDecoder, LineSplitter, decode_line

KEY = bytes(range(16))


def stream_lines():
    """Valid gateway lines, one of every kind."""
    frames = [
        codec.encode_position(KEY, 0x0201, 1000, 583776000, 267290000, 87, 1, 11),
        codec.encode_casualty(KEY, 0x0102, 106, 1234, "healer_touch", 57),
        codec.encode_stopp_called(KEY, 0x0102, 202, 2, "injury", None, None),
        codec.encode_heartbeat(KEY, 0x0103, 7, None, 95),
    ]
    lines = [codec.format_rx_line(7, -97 - i, 9.5 - i * 4.25, f) for i, f in enumerate(frames)]
    lines += [codec.format_id_line(7, "1.0.0"), codec.format_txok_line(5001),
              codec.format_txerr_line("duty"), codec.format_status_line(7, 95, 1234, 17, 56, 1)]
    return lines


def test_lf_and_crlf_lines_and_partial_line_kept():
    s = LineSplitter()
    assert s.feed(b"one\ntwo\r\nthr") == [b"one", b"two"]
    assert s.pending == 3
    assert s.feed(b"ee\r") == []
    assert s.feed(b"\n\nfour\n") == [b"three", b"", b"four"]
    assert s.feed(b"") == [] and s.pending == 0


def test_nul_and_garbage_tolerated():
    s = LineSplitter()
    assert s.feed(b"\x00\xff\x1b[0m\rets Jun  8 2016\x00\n") == [b"\x00\xff\x1b[0m\rets Jun  8 2016\x00"]
    assert s.feed(bytearray(b"a\n")) == [b"a"] and s.feed(memoryview(b"b\n")) == [b"b"]
    assert s.feed(None) == [] and s.feed(12) == [] and s.overflows == 0


def test_overflow_dropped_counted_and_resynced():
    s = LineSplitter(max_line=512)
    assert s.feed(b"x" * 512 + b"\n") == [b"x" * 512]          # exactly the limit is fine
    assert s.feed(b"x" * 512 + b"\r\n") == [b"x" * 512]        # the line ending is not counted
    assert s.feed(b"y" * 600) == [] and s.overflows == 1 and s.pending == 0
    assert s.feed(b"y" * 5000) == [] and s.pending == 0         # still the same line: bounded
    assert s.feed(b"yyy\nok\n") == [b"ok"] and s.overflows == 1
    assert s.feed(b"z" * 513 + b"\nnext\n") == [b"next"] and s.overflows == 2
    assert s.dropped_head == b"z" * 64


def test_overflow_same_for_any_chunking():
    data = b"a\n" + b"b" * 40 + b"\r\nc\n" + b"d" * 41 + b"\ne\n"
    whole = LineSplitter(max_line=40)
    expected = whole.feed(data)
    assert expected == [b"a", b"b" * 40, b"c", b"e"] and whole.overflows == 1
    for cut in range(len(data) + 1):
        s = LineSplitter(max_line=40)
        assert s.feed(data[:cut]) + s.feed(data[cut:]) == expected and s.overflows == 1
    s = LineSplitter(max_line=40)
    assert [x for b in data for x in s.feed(bytes([b]))] == expected


def test_longest_protocol_line_fits_the_default_limit():
    line = codec.format_rx_line(65535, -200, -64, bytes(codec.MAX_LINE_FRAME))
    assert len(line) == 536 < MAX_LINE
    items = GatewayLineDecoder().feed(line.encode() + b"\r\n")
    assert items[0].ok and items[0].fields["frame"] == bytes(255)


def test_decoder_items_and_counts():
    good = codec.format_rx_line(7, -97, -7.25, codec.encode_valhalla(KEY, 0x0102, 9, 77))
    bad_crc = good[:-1] + ("0" if good[-1] != "0" else "1")
    d = GatewayLineDecoder(max_line=100)
    data = "\n".join([good, bad_crc, "Guru Meditation Error", "", "ID?", "ID? 4914"]).encode()
    items = d.feed(data + b"\nboot \xe4\x00\n" + b"Q" * 150 + b"\n" + good.encode() + b"\r\n")
    assert [i.kind for i in items] == ["rx", "rejected", "rejected", "id_request", "id_request",
                                       "rejected", "rejected", "rx"]
    assert [i.reason for i in items] == [None, "checksum", "line", None, None, "line", "overflow", None]
    assert "0xE4 is not printable" in items[5].detail          # PROTOCOL.md section 7: a bad byte is "line"
    assert items[0].raw == good.encode() and items[0].ok and items[-1].raw == good.encode()
    assert codec.decode_frame(items[0].fields["frame"]).fields == {"badge": 77}
    assert items[6].raw == b"Q" * 64 and "100" in items[6].detail
    assert d.counts == {"checksum": 1, "line": 2, "overflow": 1}
    assert d.kinds == {"rx": 2, "id_request": 2}
    assert d.lines == 8 and d.blank == 1 and d.overflows == 1


def test_decoder_reset_drops_partial_line():
    d = GatewayLineDecoder()
    line = codec.format_txok_line(5).encode() + b"\n"
    assert d.feed(line[:5]) == []
    d.reset()
    assert [i.kind for i in d.feed(line)] == ["txok"] and d.counts["line"] == 0


def test_decode_line_never_raises_on_odd_input():
    assert decode_line(b"").reason == "line"
    assert decode_line("RX 1 2 3 4 5\n").reason == "line"
    assert decode_line(b"\xff").reason == "line"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.integers(0, 3000), max_size=8))
def test_random_bytes_any_chunking_never_crash(data, cuts):
    whole = GatewayLineDecoder(max_line=200)
    expected = whole.feed(data)
    chunked = GatewayLineDecoder(max_line=200)
    got, start = [], 0
    for cut in sorted(cuts) + [len(data)]:
        got += chunked.feed(data[start:max(start, cut)])
        start = max(start, cut)
    assert got == expected and chunked.counts == whole.counts
    for item in got:
        assert item.ok == (item.reason is None) and (item.reason is None or item.reason in REJECT_REASONS)
        assert len(item.raw) <= 200


def test_valid_stream_cut_at_every_byte_boundary():
    lines = stream_lines()
    data = "".join(line + ("\r\n" if i % 2 else "\n") for i, line in enumerate(lines)).encode()
    expected = [codec.parse_line(line) for line in lines]
    for cut in range(len(data) + 1):
        d = GatewayLineDecoder()
        items = d.feed(data[:cut]) + d.feed(data[cut:])
        assert [i.fields for i in items] == expected
        assert all(i.ok for i in items) and sum(d.counts.values()) == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(stream_lines()).map(lambda s: ("ok", s)),
                          st.binary(max_size=80).map(lambda b: ("junk", b))), max_size=12),
       st.data())
def test_valid_lines_survive_surrounding_garbage(parts, data):
    stream, expected = b"", []
    for what, part in parts:
        if what == "ok":
            stream += part.encode() + b"\n"
            expected.append(codec.parse_line(part))
        else:
            stream += part.replace(b"\n", b"") + b"\n"   # garbage, but not touching good lines
    cut = data.draw(st.integers(0, len(stream)))
    d = GatewayLineDecoder()
    items = d.feed(stream[:cut]) + d.feed(stream[cut:])
    assert [i.fields for i in items if i.ok and i.kind != "id_request"] == expected
