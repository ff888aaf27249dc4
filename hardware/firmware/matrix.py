"""4x4 keypad matrix scanner and the STOPP button, debounced (portable).

Rows are outputs driven low one at a time, columns inputs with pull-ups: a
pressed key pulls its column low while its row is low.  ``poll(now_ms)``
returns a key once per press (after ``DEBOUNCE_MS`` of stable contact)
or None.  The pins come from hw.py (machine.Pin); tests pass fake pins.
"""

LAYOUT = ("123A", "456B", "789C", "*0#D")
DEBOUNCE_MS = 30


class Debounced:
    """One contact: reports a press when it has been closed DEBOUNCE_MS."""

    def __init__(self):
        self.closed_since = None
        self.reported = False

    def update(self, closed, now_ms):
        if not closed:
            self.closed_since, self.reported = None, False
            return False
        if self.closed_since is None:
            self.closed_since = now_ms
        if not self.reported and now_ms - self.closed_since >= DEBOUNCE_MS:
            self.reported = True
            return True
        return False


class Matrix:
    def __init__(self, rows, cols, stopp=None, layout=LAYOUT):
        self.rows, self.cols, self.stopp, self.layout = rows, cols, stopp, layout
        self.keys = {}
        for r in range(len(rows)):
            rows[r].value(1)
            for c in range(len(cols)):
                self.keys[layout[r][c]] = Debounced()
        self.stopp_key = Debounced()

    def scan(self):
        """Keys closed right now."""
        closed = []
        for r in range(len(self.rows)):
            self.rows[r].value(0)
            for c in range(len(self.cols)):
                if self.cols[c].value() == 0:
                    closed.append(self.layout[r][c])
            self.rows[r].value(1)
        return closed

    def poll(self, now_ms):
        pressed = None
        if self.stopp is not None and self.stopp_key.update(self.stopp.value() == 0, now_ms):
            pressed = "STOPP"                  # STOPP first: it beats any key
        closed = self.scan()
        for key, contact in self.keys.items():
            if contact.update(key in closed, now_ms) and pressed is None:
                pressed = key
        return pressed
