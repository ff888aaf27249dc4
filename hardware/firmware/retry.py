"""Retries of acknowledged messages until the gateway's ack arrives (portable).

PROTOCOL.md section 6: a retry resends the identical bytes (same counter and
tag) after 4 s, 8 s, 16 s, 32 s, then every 60 s, each with 0-1 s of random
jitter.  Casualty and Valhalla reports give up after 8 tries (NOT HEARD);
STOPP messages never give up (NOT CONFIRMED until acknowledged).

Times are plain millisecond ints from the caller (no clock in here);
``rand(n)`` returns an int in 0..n-1 (random.getrandbits-based on the device).
"""

BACKOFF_MS = (4000, 8000, 16000, 32000)
STEADY_MS = 60000
JITTER_MS = 1000
GIVE_UP_TRIES = 8

WAITING, ACKED, FAILED = "waiting", "acked", "failed"


class Entry:
    """One message that wants an ack."""

    __slots__ = ("counter", "frame", "label", "forever", "tries", "next_ms", "state", "sent_ms")

    def __init__(self, counter, frame, label, forever, now_ms):
        self.counter = counter
        self.frame = bytes(frame)
        self.label = label
        self.forever = forever
        self.tries = 1              # the first transmission
        self.sent_ms = now_ms
        self.next_ms = now_ms
        self.state = WAITING


def delay_ms(tries):
    """Wait after the ``tries``-th transmission, before jitter."""
    if tries <= len(BACKOFF_MS):
        return BACKOFF_MS[tries - 1]
    return STEADY_MS


class Outbox:
    """Messages sent and waiting for their acks."""

    def __init__(self, rand):
        self.rand = rand
        self.entries = []

    def add(self, counter, frame, label, forever, now_ms):
        """Record a message just transmitted (its first try)."""
        entry = Entry(counter, frame, label, forever, now_ms)
        entry.next_ms = now_ms + delay_ms(1) + self.rand(JITTER_MS)
        self.entries.append(entry)
        return entry

    def due(self, now_ms):
        """Entries to transmit again now (their try count and next time are
        advanced).  Entries out of tries turn FAILED and are not returned."""
        out = []
        for entry in self.entries:
            if entry.state != WAITING or now_ms < entry.next_ms:
                continue
            if not entry.forever and entry.tries >= GIVE_UP_TRIES:
                entry.state = FAILED
                continue
            entry.tries += 1
            entry.sent_ms = now_ms
            entry.next_ms = now_ms + delay_ms(entry.tries) + self.rand(JITTER_MS)
            out.append(entry)
        return out

    def waiting_counters(self):
        return [e.counter for e in self.entries if e.state == WAITING]

    def ack(self, counter):
        """The entry acknowledged by an ack naming ``counter``, or None when no
        waiting entry has that counter (a stray or late ack)."""
        for entry in self.entries:
            if entry.counter == counter and entry.state == WAITING:
                entry.state = ACKED
                return entry
        return None

    def prune(self, keep=8):
        """Forget finished entries beyond the last ``keep`` (memory stays bounded)."""
        done = [e for e in self.entries if e.state != WAITING]
        for entry in done[:-keep] if len(done) > keep else []:
            self.entries.remove(entry)

    def next_due_ms(self):
        times = [e.next_ms for e in self.entries if e.state == WAITING]
        return min(times) if times else None
