"""Alarms: what a game master must see at once, and the class each belongs to."""

from __future__ import annotations

from typing import NamedTuple

from controlroom.i18n import QT_TRANSLATE_NOOP, translate

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
    "weak_spot": LINK,              # a device whose reports keep needing retries in one place (engine/coverage.py)
    "storage": STORAGE,
}


class Alarm(NamedTuple):
    """Something a game master must see at once; it stays until acknowledged (by ``id``)."""

    id: str
    kind: str            # a key of KIND_CLASS
    message: str
    t: int
    # repeats merged into this one.  The field shadows tuple.count, which typeshed types as a method: the
    # name is the alarm's readers' (ui, report), so it stays and mypy's refusal of the override is ignored.
    count: int = 1  # type: ignore[assignment]

    @property
    def cls(self) -> str:
        return KIND_CLASS.get(self.kind, GAME)


SECURITY_KINDS = ("rejected_auth", "rejected_replay", "rejected_unknown_device")
_FLOOD_WORDS = {            # many frames in words (translated where shown); {n} frames, {d} devices
    "rejected_auth": QT_TRANSLATE_NOOP("alarms",
                                       "{n} forged frames (wrong tag) claiming {d} device(s) in the last minute"),
    "rejected_replay": QT_TRANSLATE_NOOP("alarms", "{n} replayed frames of {d} device(s) in the last minute"),
    "rejected_unknown_device": QT_TRANSLATE_NOOP("alarms", "{n} frames from {d} unknown device(s) in the last minute"),
}
_FLOOD_OTHER = QT_TRANSLATE_NOOP("alarms", "{n} frames of {d} device(s) in the last minute")


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
            text = translate("alarms", _FLOOD_WORDS.get(kind, _FLOOD_OTHER)).format(
                n=row["n"], d=len(row["devices"])) + translate("alarms", "; the latest: {detail}").format(
                detail=row["detail"])
        return Alarm(row["id"], kind, text, row["t"], row["n"])


#: Classes in the order the banner shows them, most urgent first.
PRIORITY = (SAFETY, STORAGE, GAME, SECURITY, LINK)
#: Classes whose alarms are acknowledged one by one (never "all at once").
ONE_BY_ONE = frozenset({SAFETY, STORAGE})
#: Kinds merged into one row whatever their subject (each death is news, but one row says "×12").
MERGE_BY_KIND = frozenset({"death", "late_report"})


def merge_key(alarm: Alarm) -> str:
    """Which row an alarm joins: each safety or storage alarm its own; deaths all one; others by kind and subject.

    Alarm ids end with the game time they were raised at (``rejected_replay:1005:3140``);
    without it, what is left names the kind and the subject (a device, a gateway, a marshal),
    so the second replayed frame of device 1005 joins the first one's row.
    """
    if alarm.cls in ONE_BY_ONE:
        return alarm.id
    if alarm.kind in MERGE_BY_KIND:
        return alarm.kind
    head, _sep, tail = alarm.id.rpartition(":")
    base = head if tail.isdigit() and head else alarm.id
    return f"{alarm.kind}|{base}"


class AlarmRowState(NamedTuple):
    """One row of the banner: the latest alarm of its key, how many were merged, and their ids."""

    key: str
    cls: str
    latest: Alarm
    count: int  # type: ignore[assignment]  # shadows tuple.count (typeshed's method), as Alarm.count does
    ids: tuple[str, ...]


class AlarmBoard:
    """The unacknowledged alarms, merged into rows (pure Python: the banner draws it)."""

    def __init__(self) -> None:
        self._rows: dict[str, AlarmRowState] = {}
        self._order = 0
        self._seen: dict[str, int] = {}        # key -> when last raised (an order number)
        self._where: dict[str, str] = {}       # alarm id -> the key of its row (a burst of 2,000 deaths joins
        #                                        one row: looking an id up in the row's ids took seconds)

    def add(self, alarm: Alarm) -> tuple[AlarmRowState, bool]:
        """Add ``alarm``; returns its row and whether the row is new (a new row rings)."""
        key = merge_key(alarm)
        self._order += 1
        self._seen[key] = self._order
        row = self._rows.get(key)
        if row is None:
            row = AlarmRowState(key, alarm.cls, alarm, alarm.count, (alarm.id,))
            self._rows[key] = row
            self._where[alarm.id] = key
            return row, True
        if self._where.get(alarm.id) == key:    # raised again under its id (an update): replaced, not counted
            row = row._replace(latest=alarm)
        else:
            row = row._replace(latest=alarm, count=row.count + alarm.count, ids=row.ids + (alarm.id,))
            self._where[alarm.id] = key
        self._rows[key] = row
        return row, False

    def rows(self) -> list[AlarmRowState]:
        """Rows most urgent class first, the newest first within a class."""
        return sorted(self._rows.values(), key=lambda r: (PRIORITY.index(r.cls) if r.cls in PRIORITY else len(PRIORITY),
                                                          -self._seen[r.key]))

    def visible(self, limit: int = 3) -> tuple[list[AlarmRowState], int]:
        """The rows shown (at most ``limit``) and how many more there are."""
        rows = self.rows()
        return rows[:limit], max(0, len(rows) - limit)

    def acknowledge(self, key: str) -> tuple[str, ...]:
        """Acknowledge one row; returns the alarm ids it held (each to be stored as acknowledged)."""
        row = self._rows.pop(key, None)
        self._seen.pop(key, None)
        if row is None:
            return ()
        for alarm_id in row.ids:
            if self._where.get(alarm_id) == key:
                del self._where[alarm_id]
        return row.ids

    def acknowledge_class(self, cls: str) -> tuple[str, ...]:
        """Acknowledge every row of a class (not safety or storage: those go one by one)."""
        if cls in ONE_BY_ONE:
            raise ValueError(f"{cls} alarms are acknowledged one by one")
        ids: tuple[str, ...] = ()
        for key in [r.key for r in self._rows.values() if r.cls == cls]:
            ids += self.acknowledge(key)
        return ids

    def remove_id(self, alarm_id: str) -> bool:
        """An alarm acknowledged elsewhere (another station, the log): take it out of its row."""
        key = self._where.get(alarm_id)
        row = self._rows.get(key) if key is not None else None
        if key is None or row is None:
            return False
        ids = tuple(i for i in row.ids if i != alarm_id)
        if ids:
            self._rows[key] = row._replace(ids=ids, count=max(1, row.count - 1))
            del self._where[alarm_id]
        else:
            self.acknowledge(key)
        return True

    def key_of(self, alarm_id: str) -> str | None:
        key = self._where.get(alarm_id)
        return key if key in self._rows else None

    def __len__(self) -> int:
        return len(self._rows)
