"""A report waiting to be stored: from a radio frame, a Meshtastic text, a web form or a game master's entry.

Every input becomes one ``Report`` before it is batched.  What is sent back
waits with it until its event is stored: the acknowledgement frames of the
gateways that heard it (``acks``), and for a typed report its answer in
words (``answer``), which the fold's verdict decides (``verdict``): the
marshal reads "OK" only for a report that counted as sent, and the rule
that refused it otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controlroom.engine.output import FormAnswer
from controlroom.game.character import RuleWarning
from controlroom.game.devices import RadioMeta
from controlroom.game.events import SOURCE_GM, EventError, validate
from controlroom.game.textreport import clip
from controlroom.i18n import translate
from controlroom.radio.link import Ack, MeshReply


@dataclass(slots=True)
class Report:
    """One report on its way to the record."""

    type: str
    data: dict[str, Any]
    source: str
    radio: RadioMeta | None = None
    acks: list[Ack] = field(default_factory=list)      # sent once it is stored (copies heard meanwhile join)
    pressed_ms: int | None = None                      # unix ms of the key press (protocol v2), if known
    answer: MeshReply | FormAnswer | None = None       # "OK ..." to send once stored, unless the fold refuses it

    @property
    def from_field(self) -> bool:
        """Whether a marshal's or a tracker's device sent it (it counts for their silence)."""
        return self.source.startswith(("marshal:", "tracker:"))


def report(type_: str, fields: dict[str, Any], source: str = SOURCE_GM, **extra: Any) -> Report:
    """A report of ``type_`` from ``source``, its fields checked; EventError says what is wrong."""
    return Report(type_, validate(type_, fields), source, **extra)


def try_report(type_: str, fields: dict[str, Any], source: str, rejected: list[str], **extra: Any) -> Report | None:
    """``report``, or None with the reason added to ``rejected`` (``"source: what is wrong"``)."""
    try:
        return report(type_, fields, source, **extra)
    except EventError as exc:
        rejected.append(f"{source}: {exc}")
        return None


def verdict(answer: MeshReply, warnings: Sequence[RuleWarning], language: str | None = None) -> MeshReply:
    """The answer a typed report gets once folded: its "OK ..." when it counted, else why it did not, said in
    ``language`` (the marshals'; None: the language spoken)."""
    if not warnings:
        return answer
    why = "; ".join(dict.fromkeys(w.message if w.wording is None else w.wording.render(language) for w in warnings))
    return replace(answer, text=clip(f"? {why}"))


def form_verdict(answer: FormAnswer, warnings: Sequence[RuleWarning], again: bool = False) -> FormAnswer:
    """A phone's report answered once stored: "stored", with what it said or the rule that refused it.

    ``again``: the log had it already (the form was sent before): stored once, said so.
    """
    if again:
        return replace(answer, text=translate("web", "stored before: this form was sent already"), again=True)
    if warnings:
        why = "; ".join(dict.fromkeys(w.message for w in warnings))
        return replace(answer, counted=False, text=translate("web", "stored, but it does not count: {why}").format(
            why=why))
    said = answer.text
    return replace(answer, text=translate("web", "stored") + (f": {said}" if said else ""))
