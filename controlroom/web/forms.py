"""A phone's form, checked and made into the report it is (``commands.FormReport``), as a handset's frame would be.

A marshal reports casualties (the handset's kinds), a STOPP called or lifted
and Valhalla check-ins; the safety officer acknowledges safety alarms; the
Valhalla gate checks players in.  Each form carries ``form``, a number the
page draws once per form and sends again with a resend: the report's key in
the event log, so that it is stored once.
"""

from __future__ import annotations

from typing import Any

from controlroom.engine.commands import FormReport
from controlroom.game.events import STOPP_REASONS
from controlroom.radio.codec import BY_OPTIONAL, BY_REQUIRED, CASUALTY_KINDS
from controlroom.radio.ingest import casualty_event
from controlroom.web.invites import device_of

FORM_MAX = 2**53 - 1          # the page's numbers are JavaScript's whole numbers
#: What each role may send, by path.
ACTIONS = {"marshal": ("report",), "safety": ("ack",), "valhalla": ("checkin",), "viewer": ()}


class FormError(ValueError):
    """A form that is no report: ``str()`` says what is wrong; ``status`` the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _int(body: dict, key: str, low: int = 1, high: int = 9_999_999, required: bool = True) -> int | None:
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise FormError(f"'{key}' is missing")
        return None
    if isinstance(value, str) and value.strip().lstrip("#").isdigit():
        value = int(value.strip().lstrip("#"))
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FormError(f"'{key}' must be a whole number from {low} to {high}")
    return value


def _text(body: dict, key: str, limit: int = 64) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise FormError(f"'{key}' must be a text of 1 to {limit} characters")
    return value.strip()


def form_report(path: str, body: Any, invite, stopps: dict) -> tuple[int, str, dict, str]:
    """(form, event type, fields, what the answer says) for a form posted to ``path`` by ``invite``.

    ``stopps``: the STOPPs in force (id -> StoppView), for a marshal's lift.
    """
    if not isinstance(body, dict):
        raise FormError("a form is a JSON object")
    if path not in ACTIONS.get(invite.role, ()):
        raise FormError(f"a {invite.role} cannot send this form", 403)
    form = _int(body, "form", 1, FORM_MAX)
    if path == "ack":
        alarm = _text(body, "alarm", 96)
        if not alarm.startswith("stopp:"):
            raise FormError("only safety alarms (STOPPs and injuries) are acknowledged here")
        return form, "alarm_acknowledged", {"alarm": alarm, "by": invite.name}, f"alarm {alarm} acknowledged"
    if path == "checkin":
        badge = _int(body, "badge")
        return form, "valhalla_checkin", {"badge": badge}, f"{badge} in Valhalla"
    action = body.get("action")
    if action == "casualty":
        kind = body.get("kind")
        if kind not in CASUALTY_KINDS:
            raise FormError(f"'kind' must be one of {', '.join(CASUALTY_KINDS)}")
        badge = _int(body, "badge")
        by = _int(body, "by", required=kind in BY_REQUIRED) if kind in BY_REQUIRED + BY_OPTIONAL else None
        type_, fields, _src = casualty_event(kind, badge, by, "")
        said = f"{badge} {kind.replace('_', ' ')}" + (f" by {by}" if by is not None else "")
        return form, type_, fields, said
    if action == "valhalla":
        badge = _int(body, "badge")
        return form, "valhalla_checkin", {"badge": badge}, f"{badge} in Valhalla"
    if action == "stopp":
        reason = body.get("reason", "danger")
        if reason not in STOPP_REASONS:
            raise FormError(f"'reason' must be one of {', '.join(STOPP_REASONS)}")
        stopp = f"W{invite.id}-{form & 0xFFFF:04x}"
        fields: dict[str, Any] = {"stopp": stopp, "reason": reason}
        if invite.badge is not None:
            fields["caller"] = invite.badge
        return form, "stopp_called", fields, f"STOPP {stopp} ({reason})"
    if action == "lift":
        stopp = _text(body, "stopp", 40)
        if not stopp.startswith(f"W{invite.id}-"):
            raise FormError("a marshal lifts the STOPPs called from this phone; the game master lifts the others",
                            403)
        if stopp not in stopps:
            raise FormError(f"no STOPP {stopp} is in force")
        return form, "stopp_lifted", {"stopp": stopp}, f"STOPP {stopp} lifted"
    raise FormError("'action' must be casualty, valhalla, stopp or lift")


def command_for(path: str, body: Any, invite, stopps: dict):
    """The maker of the FormReport (given the request number); FormError when the form is not a report."""
    form, type_, fields, said = form_report(path, body, invite, stopps)
    source = f"web:{invite.name}"[:64]
    device = device_of(invite)
    return lambda request: FormReport(request, type_, fields, source, device, form, said)
