"""Alarms: what a game master must see at once, and the class each belongs to."""

from __future__ import annotations

from typing import NamedTuple

SAFETY, GAME, SECURITY, LINK, STORAGE = "safety", "game", "security", "link", "storage"
CLASSES = (SAFETY, GAME, SECURITY, LINK, STORAGE)

# Each alarm kind's class: safety first (STOPP and injuries), then the game, radio security, links.
KIND_CLASS = {
    "stopp": SAFETY,
    "injury": SAFETY,
    "death": GAME,
    "marshal_silent": GAME,
    "stopp_overdue": GAME,
    "late_report": GAME,
    "rejected_auth": SECURITY,
    "rejected_replay": SECURITY,
    "rejected_unknown_device": SECURITY,
    "gateway_lost": LINK,
    "storage": STORAGE,
}


class Alarm(NamedTuple):
    """Something a game master must see at once; it stays until acknowledged (by ``id``)."""

    id: str
    kind: str            # a key of KIND_CLASS
    message: str
    t: int
    count: int = 1       # repeats merged into this one

    @property
    def cls(self) -> str:
        return KIND_CLASS.get(self.kind, GAME)


SECURITY_KINDS = ("rejected_auth", "rejected_replay", "rejected_unknown_device")
_FLOOD_WORDS = {            # (one frame, many frames) in words; {n} frames, {d} devices
    "rejected_auth": "{n} forged frames (wrong tag) claiming {d} device(s) in the last minute",
    "rejected_replay": "{n} replayed frames of {d} device(s) in the last minute",
    "rejected_unknown_device": "{n} frames from {d} unknown device(s) in the last minute",
}


class SecurityFlood:
    """Radio security alarms merged per kind and minute, so that a flood cannot bury a STOPP.

    ``note(kind, device, detail, now)`` counts one rejected frame.  The first of a
    kind opens a row (an Alarm with a new id) at once; the next ones within
    ``window_ms`` of it only raise its ``count``, and the row is raised again
    under the same id (which replaces it) at most every ``update_ms``, or by
    ``flush(now)``.  So never more than one new row per kind per minute.  The
    single frames stay in the radio panel's log.  ``now`` is real time (ms, any
    origin: a game master reads the rows in real minutes, whatever the game's
    speed); ``t``, the game time shown with the alarm, defaults to it.
    """

    def __init__(self, window_ms: int = 60_000, update_ms: int = 5_000) -> None:
        self.window_ms, self.update_ms = window_ms, update_ms
        self.rows: dict[str, dict] = {}         # kind -> the open row

    def note(self, kind: str, device: int | None, detail: str, now: int, t: int | None = None) -> Alarm | None:
        row = self.rows.get(kind)
        if row is None or now - row["start"] >= self.window_ms:
            t = now if t is None else t
            row = self.rows[kind] = {"id": f"{kind}:{t}", "start": now, "t": t, "n": 0, "devices": set(),
                                     "detail": detail, "shown": -1, "shown_n": 0}
        row["n"] += 1
        row["devices"].add(device)
        row["detail"] = detail
        if row["shown"] < 0 or now - row["shown"] >= self.update_ms:
            return self._show(kind, row, now)
        return None

    def flush(self, now: int) -> list[Alarm]:
        """The rows whose count grew since they were last raised."""
        return [self._show(kind, row, now) for kind, row in self.rows.items() if row["n"] != row["shown_n"]]

    def _show(self, kind: str, row: dict, now: int) -> Alarm:
        row["shown"], row["shown_n"] = now, row["n"]
        if row["n"] == 1:
            text = row["detail"]
        else:
            text = _FLOOD_WORDS.get(kind, "{n} frames of {d} device(s) in the last minute").format(
                n=row["n"], d=len(row["devices"])) + f"; the latest: {row['detail']}"
        return Alarm(row["id"], kind, text, row["t"], row["n"])
