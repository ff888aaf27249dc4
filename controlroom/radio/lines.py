"""Serial line splitting and decoding for the gateway link (no Qt, no threads).

``LineSplitter`` cuts a byte stream, in chunks of any size, into lines (LF or
CR LF).  Its buffer is bounded: a line longer than ``max_line`` bytes is
dropped and counted in ``.overflows``, and the splitter resyncs at the next LF.

``GatewayLineDecoder`` puts ``codec.parse_line`` behind the splitter:
``feed(data)`` returns one ``Item`` per complete line, either the parsed line
(``item.fields``, the dict of ``parse_line``) or a rejection with a ``reason``:

- ``"checksum"``: the line's CRC does not match,
- ``"line"``: not a line of the protocol, including a byte that is not
  printable ASCII (NUL, boot noise at the wrong baud rate, a UTF-8
  character ...), as PROTOCOL.md section 7 and its vectors say; the detail
  names the byte,
- ``"overflow"``: longer than ``max_line`` bytes before its LF (the
  protocol's limit, ``codec.MAX_LINE``; section 7).

Blank lines are skipped (counted in ``.blank``, no item).  Neither class ever
raises on any input, and the result does not depend on how the stream is
chunked.
"""

from dataclasses import dataclass

from controlroom.radio import codec

# The longest protocol line is an RX line with a 255-byte frame (536 bytes,
# 537 with a CR).  The limit, 1024, leaves room for extra key=value pairs on ID lines.
MAX_LINE = codec.MAX_LINE
REJECT_REASONS = ("checksum", "line", "overflow")
OVERFLOW = object()        # marker yielded by LineSplitter.iter_feed
_KEEP_OF_OVERFLOW = 64     # bytes of a dropped over-long line kept in Item.raw


_PRINTABLE = bytes(range(0x20, 0x7F))


def _as_bytes(data):
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8", "surrogateescape")
    try:
        return bytes(data)
    except (TypeError, ValueError):
        return b""


class LineSplitter:
    """Incremental line splitter with a bounded buffer.

    ``feed(data) -> list[bytes]``: the complete lines, without LF and without
    a CR just before it.  A CR elsewhere, NUL and any other byte are kept.
    A line of more than ``max_line`` bytes (line ending not counted) is
    dropped; the buffer never holds more than ``max_line + 1`` bytes.
    """

    def __init__(self, max_line=MAX_LINE):
        if max_line < 1:
            raise ValueError("max_line must be at least 1")
        self.max_line = max_line
        self.overflows = 0
        self._buf = bytearray()
        self._discarding = False     # inside an over-long line: drop up to the next LF
        self._dropped_head = b""     # the first bytes of the line being dropped

    def reset(self):
        """Forget a partial line (after a reconnect); counters are kept."""
        self._buf.clear()
        self._discarding = False
        self._dropped_head = b""

    @property
    def pending(self):
        """Bytes buffered of an unfinished line."""
        return len(self._buf)

    def feed(self, data):
        return [line for line in self.iter_feed(data) if line is not OVERFLOW]

    def iter_feed(self, data):
        """Like ``feed`` but also yields ``OVERFLOW`` where a line was dropped
        (once per over-long line, when it passes ``max_line``)."""
        data = _as_bytes(data)
        start, end = 0, len(data)
        while start < end:
            nl = data.find(b"\n", start)
            stop = end if nl < 0 else nl
            if self._discarding:
                if nl >= 0:
                    self._discarding = False
            else:
                self._buf += data[start:stop]
                size = len(self._buf)
                if nl >= 0 and size and self._buf[-1] == 0x0D:
                    size -= 1                    # CR LF: the CR is no part of the line
                if size > self.max_line + (nl < 0):   # +1: a CR may still come
                    self._dropped_head = bytes(self._buf[:_KEEP_OF_OVERFLOW])
                    self._buf.clear()
                    self.overflows += 1
                    self._discarding = nl < 0
                    yield OVERFLOW
                elif nl >= 0:
                    line = bytes(self._buf[:size])
                    self._buf.clear()
                    yield line
            if nl < 0:
                break
            start = nl + 1

    @property
    def dropped_head(self):
        """The first bytes of the last over-long line dropped."""
        return self._dropped_head


@dataclass(frozen=True)
class Item:
    """One decoded serial line.

    ``raw``: the line without its line ending (for an overflow, its first 64
    bytes).  ``fields``: ``codec.parse_line``'s dict, or None for a
    rejection.  ``reason``: None, or one of REJECT_REASONS.  ``detail``: why
    it was rejected, in words.
    """

    raw: bytes
    fields: dict | None = None
    reason: str | None = None
    detail: str = ""

    @property
    def ok(self):
        return self.reason is None

    @property
    def kind(self):
        """The line kind (rx, tx, txok, txerr, id_request, id, status), or "rejected"."""
        return self.fields["kind"] if self.fields is not None else "rejected"


def decode_line(line):
    """One line (bytes, line ending removed or not) -> Item.  Never raises."""
    line = _as_bytes(line)
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if line.translate(None, _PRINTABLE):          # (in C: the bytes that are not printable ASCII)
        for b in line:
            if b < 0x20 or b > 0x7E:
                return Item(line, reason="line", detail="byte 0x%02X is not printable ASCII" % b)
    try:
        fields = codec.parse_printable_line(line.decode("ascii"))
    except codec.FrameError as exc:
        reason = exc.reason if exc.reason in REJECT_REASONS else "line"
        return Item(line, reason=reason, detail=str(exc))
    except Exception as exc:  # a codec bug must not stop the link
        return Item(line, reason="line", detail="%s: %s" % (type(exc).__name__, exc))
    return Item(line, fields=fields)


class GatewayLineDecoder:
    """Bytes from a gateway -> Items.

    Counters: ``lines`` (complete lines, blank ones excluded, overflows
    included), ``blank``, ``kinds`` (parsed lines by kind) and ``counts``
    (rejections by reason: every reason of REJECT_REASONS is a key).
    """

    def __init__(self, max_line=MAX_LINE):
        self.splitter = LineSplitter(max_line)
        self.lines = 0
        self.blank = 0
        self.kinds = {}
        self.counts = dict.fromkeys(REJECT_REASONS, 0)

    @property
    def overflows(self):
        return self.splitter.overflows

    def reset(self):
        """Drop a partial line, e.g. after the port was reopened."""
        self.splitter.reset()

    def feed(self, data):
        items = []
        for line in self.splitter.iter_feed(data):
            if line is OVERFLOW:
                item = Item(self.splitter.dropped_head, reason="overflow",
                            detail="line longer than %d bytes" % self.splitter.max_line)
            elif not line:
                self.blank += 1
                continue
            else:
                item = decode_line(line)
            self.lines += 1
            if item.ok:
                self.kinds[item.kind] = self.kinds.get(item.kind, 0) + 1
            else:
                self.counts[item.reason] += 1
            items.append(item)
        return items
