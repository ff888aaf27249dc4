"""The marshal handset's keypad state machine (portable, no hardware).

Keys are one-character strings from the 4x4 keypad ("0".."9", "A".."D",
"*", "#") and "STOPP" from the dedicated STOPP button.  ``press(key)``
returns an action dict when a report is complete, else None; ``lines()``
is what the screen shows (what will be sent, and which keys do what).

Reporting a casualty: badge digits, then a kind key, then # to send.

    A  down            (A again: died)
    B  knocked out     (B again: permanently killed)
    C  bound           (C again: healed by a healer's touch)
    D  Valhalla check-in of the badge

A kind key pressed again toggles to its second kind (shown on the screen).
"bound" and "permanently killed" may take a second badge (who bound / the
killer), "healed" must: after # the screen asks for it, then # sends
(# on an empty second badge sends without one, where that is allowed).
* deletes the last digit, or goes back one step; on an empty entry it
clears everything.

STOPP: the STOPP button, then the reason: 1 unpleasant, 2 injury,
3 danger.  STOPP pressed twice sends at once with reason "danger" (no
time to think in an emergency).  The caller's badge may be typed first:
badge digits, then STOPP, then the reason (it goes out as the STOPP's
caller, protocol version 2); without digits there is no caller.  Lifting: with a STOPP of this handset
open (``stopp_open``), STOPP then # # lifts it; * or any other key cancels.

Actions: {"type": "casualty", "badge", "kind", "by"}, {"type": "valhalla",
"badge"}, {"type": "stopp_called", "reason", "caller"}, {"type": "stopp_lifted"}.
"""

KIND_KEYS = {
    "A": ("down", "died"),
    "B": ("knocked_out", "permanent_kill"),
    "C": ("bound", "healer_touch"),
    "D": ("valhalla", "valhalla"),
}
LABELS = {
    "down": "DOWN", "died": "DIED", "knocked_out": "KNOCKED OUT",
    "permanent_kill": "PERM. KILLED", "bound": "BOUND", "healer_touch": "HEALED",
    "valhalla": "VALHALLA",
}
BY_PROMPT = {"bound": "bound by", "permanent_kill": "killed by", "healer_touch": "healer"}
BY_REQUIRED = ("healer_touch",)
STOPP_REASONS = ("unpleasant", "injury", "danger")
MAX_BADGE = 65535
DIGITS = "0123456789"


class Keypad:
    """Pure state machine: keys in, actions out.  States: idle, badge,
    kind, by, stopp, lift."""

    def __init__(self):
        self.stopp_open = None      # number of this handset's open STOPP, set by the handset
        self.message = ""           # a one-line hint or error for the screen
        self.clear()

    def clear(self):
        self.state = "idle"
        self.badge = ""
        self.caller = None          # the STOPP caller's badge, typed before the STOPP button
        self.kind = None
        self.by = ""
        self._lift_hashes = 0

    # -- input ------------------------------------------------------------------

    def press(self, key):
        """Feed one key; returns an action dict or None."""
        self.message = ""
        if key == "STOPP":
            return self._stopp_button()
        if self.state == "stopp":
            return self._stopp_key(key)
        if self.state == "lift":
            return self._lift_key(key)
        if key in DIGITS:
            return self._digit(key)
        if key == "*":
            self._back()
            return None
        if key in KIND_KEYS:
            return self._kind_key(key)
        if key == "#":
            return self._send()
        self.message = "unknown key"
        return None

    def _digit(self, key):
        if self.state in ("idle", "badge"):
            self.badge = self._append(self.badge, key)
            self.state = "badge" if self.badge else "idle"
        elif self.state == "by":
            self.by = self._append(self.by, key)
        else:
            self.message = "# sends, * back"
        return None

    def _append(self, text, digit):
        if text == "" and digit == "0":
            self.message = "no badge 0"
            return text
        if int(text + digit) > MAX_BADGE:
            self.message = "badge too big"
            return text
        return text + digit

    def _back(self):
        if self.state == "badge":
            self.badge = self.badge[:-1]
            if not self.badge:
                self.state = "idle"
        elif self.state == "kind":
            self.state, self.kind = "badge", None
        elif self.state == "by":
            if self.by:
                self.by = self.by[:-1]
            else:
                self.state = "kind"
        else:
            self.clear()

    def _kind_key(self, key):
        if self.state not in ("badge", "kind"):
            self.message = "badge first"
            return None
        first, second = KIND_KEYS[key]
        if self.state == "kind" and self.kind == first:
            self.kind = second
        else:
            self.kind = first
        self.state = "kind"
        return None

    def _send(self):
        if self.state == "badge":
            self.message = "choose A B C D"
            return None
        if self.state == "kind":
            if self.kind in BY_PROMPT:
                self.state, self.by = "by", ""
                return None
            return self._done(None)
        if self.state == "by":
            if not self.by:
                if self.kind in BY_REQUIRED:
                    self.message = "healer badge?"
                    return None
                return self._done(None)
            return self._done(int(self.by))
        self.message = "badge first"
        return None

    def _done(self, by):
        badge = int(self.badge)
        if self.kind == "valhalla":
            action = {"type": "valhalla", "badge": badge}
        else:
            action = {"type": "casualty", "badge": badge, "kind": self.kind, "by": by}
        self.clear()
        return action

    def _stopp_button(self):
        if self.state == "stopp":        # pressed twice: no time to choose
            caller = self.caller
            self.clear()
            return {"type": "stopp_called", "reason": "danger", "caller": caller}
        caller = int(self.badge) if self.state == "badge" and self.badge else None
        self.clear()
        self.state, self.caller = "stopp", caller
        return None

    def _stopp_key(self, key):
        if key in ("1", "2", "3"):
            caller = self.caller
            self.clear()
            return {"type": "stopp_called", "reason": STOPP_REASONS[int(key) - 1], "caller": caller}
        if key == "#" and self.stopp_open is not None:
            self.state, self._lift_hashes = "lift", 1
            return None
        self.clear()
        self.message = "STOPP cancelled"
        return None

    def _lift_key(self, key):
        if key == "#" and self.stopp_open is not None:
            self.clear()
            return {"type": "stopp_lifted"}
        self.clear()
        self.message = "lift cancelled"
        return None

    # -- screen -----------------------------------------------------------------

    def lines(self):
        """Up to four lines (16 characters) describing the entry in progress."""
        s = self.state
        if s == "idle":
            out = ["badge, then A-D", "STOPP: button"]
        elif s == "badge":
            out = ["badge " + self.badge, "A dn B KO C bnd", "D Valhalla"]
        elif s == "kind":
            out = ["%s %s" % (self.badge, LABELS[self.kind]), "#=send *=back"]
        elif s == "by":
            out = ["%s %s" % (self.badge, LABELS[self.kind]),
                   "%s %s" % (BY_PROMPT[self.kind], self.by or "_"),
                   "#=send" if self.by or self.kind not in BY_REQUIRED else "type badge"]
        elif s == "stopp":
            out = ["STOPP reason?" if self.caller is None else "STOPP by %d" % self.caller,
                   "1 unpleasant", "2 injury 3 dangr"]
            if self.stopp_open is not None:
                out.append("## lift STOPP %d" % self.stopp_open)
        else:
            out = ["LIFT STOPP %d?" % self.stopp_open, "# again = lift"]
        if self.message:
            out.append(self.message)
        return out
