"""Serial transport to the LoRa gateways: one reader thread per gateway (no Qt).

``GatewayLink(url, on_line, on_state)`` keeps one gateway connected.  ``url`` is
anything ``serial.serial_for_url`` opens (``/dev/ttyUSB0``, ``COM5``,
``socket://host:port``, ``loop://``), or ``usb:VID:PID[:SERIAL]`` (hex ids):
the port of the USB device with those ids, looked up on every (re)connect.

Callbacks run on the link's reader thread; the caller makes them thread-safe
(e.g. by posting to the Qt event loop):

- ``on_line(link_name, item)``: every line read, a ``lines.Item`` (parsed RX,
  ID, TXOK, TXERR, ST lines ... and rejected ones with ``item.reason``).
- ``on_state(link_name, state, detail)``, where state is one of STATES:

  ``connecting``    opening the port; detail: text ("opening /dev/ttyUSB0",
                    "found again on /dev/ttyUSB1 (was /dev/ttyUSB0)")
  ``identifying``   open, ``ID?`` written, waiting for the answer; detail: text
  ``identified``    the gateway answered; detail: its ID line dict
                    (gateway, fw, region, freq, sf, bw, cr, extras)
  ``unidentified``  open but no ID answer within ``identify_timeout``; the
                    lines are read all the same; detail: text
  ``lost``          the port failed, was unplugged or could not be opened;
                    detail: the reason in words
  ``retrying``      waiting before the next try; detail: seconds (float)
  ``stopped``       not running (before start(), after stop()); detail: None

A lost link is retried with back-off (``backoff_initial`` doubling up to
``backoff_max``); the back-off starts again from the beginning only after a
session that lasted (identified, or up for ``backoff_max``), so a port that
opens and fails at once is not hammered.

A link made for a station (``open_gateway(url, queue)``) puts what it hears
into the station's ``radio.link.HeardQueue`` instead of calling back:
``FrameHeard`` for each RX line of its own gateway, ``LineRejected`` and
``LinkState``; it is one ``radio.link.Link``: ``send(FrameAck)`` queues the
acknowledgement for transmission, ``owns`` says whether its gateway heard
the report.

Frames to transmit go through ``send_frame(frame)``: a TX queue per link
(PROTOCOL.md section 7) with one ``TX`` line outstanding, answered by ``TXOK``
or ``TXERR``.  No answer within ``tx_timeout`` counts as a timeout and the
frame is tried again; ``TXERR busy`` and ``duty`` are retried with back-off
(``tx_backoff`` doubling), ``checksum`` and ``line`` (the line was damaged on
the way) are retried at once; ``frame`` and ``radio`` drop it.  A frame is
given up after ``tx_tries`` tries or once older than ``tx_max_age`` (an ack
that late is of no use: the handset has retried, and its retry gets an ack of
its own).  A gateway that has answered no ``TX`` at all since the link opened
(a terminal, a firmware without TXOK) is not waited for again once its first
``TX`` timed out: each frame is written once, without waiting, until it
answers one.  Counters are in ``stats()["tx"]``.  Before each retry it asks ``locate(link) -> port or None``
where the gateway is now (None: try the same port again).  The default,
``locate_usb``, looks for the USB vendor/product/serial ids remembered from the
first successful open (``serial.tools.list_ports``), so a board that comes back
as /dev/ttyUSB1 instead of /dev/ttyUSB0 is found again.
"""

import logging
import os
import threading
import time
from contextlib import suppress

import serial

from controlroom.radio import codec
from controlroom.radio.lines import MAX_LINE, GatewayLineDecoder
from controlroom.radio.link import FrameAck, FrameHeard, LineRejected, LinkState
from controlroom.radio.ports import find_usb_port, parse_usb_url, usb_ids_of, usb_text

log = logging.getLogger(__name__)

STATES = ("connecting", "identifying", "identified", "unidentified", "lost", "retrying", "stopped")
UP_STATES = ("identifying", "identified", "unidentified")   # port open: send() works
_ERRORS = (serial.SerialException, OSError)

TX_COUNTERS = ("queued", "ok", "retries", "timeouts", "gave_up", "dropped", "unexpected", "unanswered", "err_busy",
               "err_duty", "err_frame", "err_radio", "err_checksum", "err_line", "err_other")


class _Tx:
    """A frame in a link's TX queue."""

    __slots__ = ("line", "counter", "born", "tries", "sent_at", "not_before")

    def __init__(self, line, counter, born):
        self.line, self.counter, self.born = line, counter, born
        self.tries, self.sent_at, self.not_before = 0, None, born


_in_use: set[str] = set()           # ports open by a GatewayLink of this process
_in_use_lock = threading.Lock()


def ports_in_use():
    """The ports a gateway link of this process has open (a board there is the station's, not one to provision)."""
    with _in_use_lock:
        return frozenset(_in_use)


def locate_usb(link):
    """Default ``locate``: find ``link.usb_ids`` among the USB serial ports,
    skipping ports that another link has open."""
    if link.usb_ids is None:
        return None
    with _in_use_lock:
        busy = frozenset(_in_use)
    return find_usb_port(link.usb_ids, link.port, busy)


class GatewayLink:
    """One gateway on one port, read by its own (non-daemon) thread."""

    def __init__(self, url, on_line=None, on_state=None, *, queue=None, name=None, locate=None,
                 identify_timeout=3.0, identify_interval=1.0, backoff_initial=0.2,
                 backoff_max=5.0, read_timeout=0.2, write_timeout=1.0,
                 baudrate=115200, max_line=MAX_LINE, tx_timeout=2.0, tx_backoff=0.25, tx_tries=6,
                 tx_max_age=20.0):
        self.url = url
        self.name = name or url
        self._queue = queue
        self.on_line = on_line or self._put_line
        self.on_state = on_state or self._put_state
        if queue is None and (on_line is None or on_state is None):
            raise ValueError("a gateway link reports to callbacks or to a station's queue")
        self._usb_url = parse_usb_url(url)
        self.usb_ids = self._usb_url           # learnt on the first open of a device path
        self.port = None if self._usb_url else url
        self.locate = locate or locate_usb
        self.identify_timeout, self.identify_interval = identify_timeout, identify_interval
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.read_timeout, self.write_timeout, self.baudrate = read_timeout, write_timeout, baudrate
        self.state, self.state_detail = "stopped", None
        self.identity = None                   # the last ID line dict
        self.reconnects = self.bytes_read = self.sent = self.send_failures = self.callback_errors = 0
        self.last_error = None                 # why it was last lost, in words
        self._decoder = GatewayLineDecoder(max_line)
        self._serial = None
        self._lock = threading.Lock()          # the open port: writes, close, cancel
        self._stats_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._last_ask = 0.0
        self.tx_timeout, self.tx_backoff, self.tx_tries, self.tx_max_age = tx_timeout, tx_backoff, tx_tries, tx_max_age
        self._txq = []                         # [_Tx], the first one outstanding when .sent_at is set
        self._txlock = threading.Lock()
        self.tx = dict.fromkeys(TX_COUNTERS, 0)
        self._answers = False                  # the gateway answered a TX (TXOK/TXERR) since the link opened
        self._silent = False                   # ... and a TX of it timed out before it ever answered one

    # -- public ------------------------------------------------------------------

    @property
    def gateway_id(self):
        return self.identity["gateway"] if self.identity else None

    @property
    def is_up(self):
        return self._serial is not None

    def start(self):
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="gateway %s" % self.name)
        self._thread.start()

    def request_stop(self):
        """Ask the reader thread to end (it notices within ``read_timeout``)."""
        self._stop.set()
        with self._lock, suppress(Exception):  # not every port type can cancel_read
            if self._serial is not None:
                self._serial.cancel_read()

    def join(self, timeout=5.0):
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def stop(self, timeout=5.0):
        """Stop the reader and join it; True when it has ended."""
        self.request_stop()
        return self.join(timeout)

    def write_line(self, line):
        """Write one line (str or bytes; LF added).  False when the port is not
        open or the write failed (the reader then reports the loss)."""
        data = line.encode("ascii") if isinstance(line, str) else bytes(line)
        if b"\n" in data.rstrip(b"\n") or b"\r" in data.rstrip(b"\r\n"):
            raise ValueError("send() takes a single line")
        data = data.rstrip(b"\r\n") + b"\n"
        if len(data) - 1 > codec.MAX_LINE:
            raise ValueError("a line is at most %d bytes (PROTOCOL.md section 7)" % codec.MAX_LINE)
        with self._lock:
            ser = self._serial
            if ser is None:
                return False
            try:
                ser.write(data)
            except (*_ERRORS, ValueError):
                self.send_failures += 1
                return False
            self.sent += 1
        return True

    # -- a station's link (radio.link.Link) -----------------------------------------

    def send(self, ack):
        """An acknowledgement to transmit (a ``FrameAck``); False for any other answer, or when not open."""
        return isinstance(ack, FrameAck) and self.send_frame(ack.frame)

    def owns(self, ack):
        """Whether this link's gateway heard the report ``ack`` answers."""
        return isinstance(ack, FrameAck) and ack.gateway == self.gateway_id

    def _put_line(self, name, item):
        """What a station's link hears (on_line): its own gateway's frames, and the lines it rejects."""
        if not item.ok:
            own = self.gateway_id
            self._queue.put(LineRejected(name if own is None else str(own), item.reason, item.detail))
            return
        if item.kind != "rx":
            return
        f = item.fields
        own = self.gateway_id
        if own is not None and f["gateway"] != own:
            # PROTOCOL.md section 7: an RX line names the gateway that heard it; this link's gateway
            # said it is another one.  Not believed, not acknowledged under that id.
            self._queue.put(LineRejected(str(own), "gateway_id", "an RX line claiming gateway %s on the link of "
                                                                 "gateway %s (%s)" % (f["gateway"], own, name)))
            return
        self._queue.put(FrameHeard(name, f["gateway"], f["rssi"], f["snr"], f["frame"]))

    def _put_state(self, name, state, detail):
        text = detail if isinstance(detail, str) else ""
        if isinstance(detail, dict) and "gateway" in detail:
            text = "gateway %s (%s, SF%s)" % (detail["gateway"], detail.get("fw", "?"), detail.get("sf", "?"))
        self._queue.put(LinkState(name, state, text))

    # -- the TX queue ------------------------------------------------------------

    def send_frame(self, frame):
        """Queue one frame for the gateway to transmit (PROTOCOL.md section 7): one ``TX``
        outstanding at a time.  False when the port is not open (nothing is queued)."""
        line = codec.format_tx_line(frame)
        counter = int.from_bytes(bytes(frame[3:7]), "big") if len(frame) >= 7 else None
        if self._serial is None:
            return False
        with self._txlock:
            self._txq.append(_Tx(line, counter, time.monotonic()))
            self.tx["queued"] += 1
        self._pump()
        return True

    @property
    def tx_pending(self):
        with self._txlock:
            return len(self._txq)

    def _pump(self):
        """Send the head of the queue when nothing is outstanding and its time has come;
        time out an outstanding one.  Called by send_frame and by the reader thread."""
        now = time.monotonic()
        with self._txlock:
            while self._txq:
                head = self._txq[0]
                if head.sent_at is not None:
                    if now - head.sent_at < self.tx_timeout:
                        return
                    self.tx["timeouts"] += 1
                    if not self._answers:          # it answers no TX at all: stop waiting for it
                        self._txq.pop(0)
                        self.tx["unanswered"] += 1
                        self._silent = True
                        continue
                    head.sent_at, head.not_before = None, now
                if now - head.born > self.tx_max_age or head.tries >= self.tx_tries:
                    self._txq.pop(0)
                    self.tx["gave_up"] += 1
                    continue
                if now < head.not_before:
                    return
                head.tries += 1
                head.sent_at = now
                if head.tries > 1:
                    self.tx["retries"] += 1
                if not self.write_line(head.line):
                    head.sent_at, head.not_before = None, now + self.tx_backoff
                    return
                if self._silent and not self._answers:
                    self._txq.pop(0)               # written once; nothing will answer it
                    self.tx["unanswered"] += 1
                    continue
                return

    def _tx_answer(self, item):
        """A TXOK or TXERR line: the answer to the outstanding TX."""
        with self._txlock:
            self._answers = True
            head = self._txq[0] if self._txq else None
            if head is None or head.sent_at is None:
                self.tx["unexpected"] += 1
                return
            if item.kind == "txok":
                if head.counter is not None and item.fields["counter"] != head.counter:
                    self.tx["unexpected"] += 1        # a late TXOK of a frame that timed out
                    return
                self._txq.pop(0)
                self.tx["ok"] += 1
            else:
                reason = item.fields["reason"]
                key = reason if reason in ("busy", "duty", "frame", "radio", "checksum", "line") else "other"
                self.tx["err_" + key] += 1
                if key in ("frame", "radio", "other"):
                    self._txq.pop(0)
                    self.tx["dropped"] += 1
                else:
                    head.sent_at = None
                    if key in ("busy", "duty"):
                        head.not_before = time.monotonic() + self.tx_backoff * 2 ** (head.tries - 1)
        self._pump()

    def stats(self):
        with self._stats_lock:
            d = self._decoder
            return {"name": self.name, "url": self.url, "port": self.port, "state": self.state,
                    "gateway": self.gateway_id, "identity": dict(self.identity or {}) or None,
                    "lines": d.lines, "frames": d.kinds.get("rx", 0), "kinds": dict(d.kinds),
                    "rejections": dict(d.counts), "reconnects": self.reconnects,
                    "bytes": self.bytes_read, "sent": self.sent, "send_failures": self.send_failures,
                    "usb": usb_text(self.usb_ids) if self.usb_ids else None,
                    "last_error": self.last_error, "callback_errors": self.callback_errors,
                    "tx": dict(self.tx), "tx_pending": len(self._txq)}

    # -- reader thread -------------------------------------------------------------

    def _set_state(self, state, detail):
        self.state, self.state_detail = state, detail
        self._call(self.on_state, state, detail)

    def _call(self, callback, *args):
        try:
            callback(self.name, *args)
        except Exception:  # a broken callback must not stop the reader
            self.callback_errors += 1
            log.exception("gateway %s: callback %r failed", self.name, callback)

    def _run(self):
        delay, first, report_loss, opened_before = self.backoff_initial, True, True, False
        while not self._stop.is_set():
            port, note = self._pick_port(first)
            first = False
            ser = None
            if port is not None:
                self._set_state("connecting", note)
                try:
                    ser = self._open(port)
                except (*_ERRORS, ValueError) as exc:
                    note = "cannot open %s: %s" % (port, exc)
            if ser is not None:
                if opened_before:
                    self.reconnects += 1
                opened_before, report_loss = True, True
                began = time.monotonic()
                note = self._session(ser, port)
                if note is None:
                    break
                if self.state == "identified" or time.monotonic() - began >= self.backoff_max:
                    delay = self.backoff_initial       # it was up for a while: try again soon
            if self._stop.is_set():
                break
            self.last_error = note
            if report_loss:
                self._set_state("lost", note)
                report_loss = False
            self._set_state("retrying", delay)
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.backoff_max)
        self._set_state("stopped", None)

    def _pick_port(self, first):
        """(port to open or None, what is happening in words)."""
        if first and self._usb_url is None:
            return self.port, "opening %s" % self.port
        try:
            found = self.locate(self)
        except Exception:
            log.exception("gateway %s: locate failed", self.name)
            found = None
        if found is None:
            if self.port is None:
                return None, "no USB device %s is plugged in" % usb_text(self.usb_ids)
            return self.port, "opening %s again" % self.port
        previous, self.port = self.port, found
        if previous is not None and found != previous:
            return found, "found again on %s (was %s)" % (found, previous)
        return found, "opening %s" % found

    def _open(self, port):
        options = {"baudrate": self.baudrate, "timeout": self.read_timeout,
                   "write_timeout": self.write_timeout}
        device = "://" not in port
        if device and os.name == "posix":
            options["exclusive"] = True        # two links on one port: the second fails
        ser = serial.serial_for_url(port, **options)
        if device and self.usb_ids is None:
            self.usb_ids = usb_ids_of(port)
        return ser

    def _ask_id(self):
        # Only after open() returned: open() flushes the input buffer.
        self._last_ask = time.monotonic()
        with self._lock:
            self._serial.write((codec.format_id_request() + "\n").encode("ascii"))

    def _session(self, ser, port):
        """Read until stopped (-> None) or the port fails (-> the reason)."""
        self._decoder.reset()                  # a partial line from before is garbage
        with self._txlock:
            self._answers = self._silent = False   # another gateway may be on the port now
        with self._lock, _in_use_lock:
            self._serial = ser
            _in_use.add(port)
        try:
            self._set_state("identifying", "opened %s, asked the gateway to identify" % port)
            self._ask_id()
            deadline = time.monotonic() + self.identify_timeout
            while not self._stop.is_set():
                waiting = ser.in_waiting
                data = ser.read(waiting if waiting > 0 else 1)
                if data:
                    self._feed(data)
                if self._txq:
                    self._pump()
                if self.state == "identifying":
                    now = time.monotonic()
                    if now >= deadline:
                        self._set_state("unidentified", "%s did not answer ID? within %g s; reading it "
                                        "anyway" % (port, self.identify_timeout))
                    elif now - self._last_ask >= self.identify_interval:
                        self._ask_id()
            return None
        except _ERRORS as exc:
            return "the gateway on %s was unplugged or its connection broke (%s)" % (port, exc)
        finally:
            with self._lock, _in_use_lock, suppress(Exception):
                self._serial = None
                _in_use.discard(port)
                ser.close()

    def _feed(self, data):
        with self._stats_lock:
            self.bytes_read += len(data)
            items = self._decoder.feed(data)
        for item in items:
            if item.kind == "id":
                if self.state != "identified" or item.fields != self.identity:
                    self.identity = item.fields
                    self._set_state("identified", item.fields)
            elif (item.kind in ("rx", "status", "txok", "txerr") and self.state == "unidentified"
                  and time.monotonic() - self._last_ask >= self.identify_timeout):
                self._ask_id()                 # it talks now (rebooted?): ask again
            if item.kind in ("txok", "txerr"):
                self._tx_answer(item)
            self._call(self.on_line, item)


#: What ``open_gateway`` passes on to ``GatewayLink`` (the station's other links' options are left).
OPTIONS = ("locate", "identify_timeout", "identify_interval", "backoff_initial", "backoff_max", "read_timeout",
           "write_timeout", "baudrate", "max_line", "tx_timeout", "tx_backoff", "tx_tries", "tx_max_age")


def open_gateway(url, queue, **options):
    """A station's link to the LoRa gateway at ``url``: it puts what it hears into ``queue``."""
    return GatewayLink(url, queue=queue, **{k: v for k, v in options.items() if k in OPTIONS})
