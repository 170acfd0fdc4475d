"""Core forms as Slack modals, and modal submissions back as core events.

A form opens with ``views.open`` and the trigger id of the slash command or button that
asked for it (Slack accepts it for 3 seconds). The modal's ``callback_id`` carries the
form's kind and target, its ``private_metadata`` the channel it was opened from (a
``view_submission`` names no channel). Each field is an input block whose ``block_id`` is
the field's name, so a refused field's message is shown under that field with
``response_action: errors`` while the modal, and everything typed in it, stays open.

A field's text longer than an input holds (3,000 characters) is never shown cut: the
input is empty and optional with a hint that says so, ``private_metadata`` lists it as
``kept``, and the submission leaves it out unless the member typed something in it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from adapters.slack.inbound import PayloadError, channel_ref, member_ref
from adapters.slack.render import FORM_PREFIX
from bot.kernel.events import FormSubmit
from bot.kernel.forms import (
    CHOICE_LABEL_LIMIT,
    FieldProblem,
    Form,
    FormField,
    chosen,
    kept_note,
)
from bot.kernel.refs import ChannelRef

VALUE_ACTION = "value"
TITLE_LIMIT = 24  # Slack's limit on a modal's title and button texts
INPUT_LIMIT = 3000  # Slack's limit on a plain_text_input's value
CHECKBOXES_LIMIT = 10  # Slack's limit on a checkboxes element's options
KEPT = "kept"  # private_metadata: the fields too long to show, left as they are if empty
ERROR_LIMIT = 500

View = dict[str, Any]


def modal_view(form: Form, channel: ChannelRef) -> View:
    metadata: dict[str, Any] = {"channel": channel.channel_id}
    kept = [field.name for field in form.fields if _too_long(field)]
    if kept:
        metadata[KEPT] = kept
    return {
        "type": "modal",
        "callback_id": f"{FORM_PREFIX}{form.kind}:{form.target}",
        "private_metadata": json.dumps(metadata),
        "title": _plain(form.title[:TITLE_LIMIT]),
        "submit": _plain(form.submit[:TITLE_LIMIT]),
        "close": _plain("Cancel"),
        "blocks": [_input(field) for field in form.fields],
    }


def _limit(field: FormField) -> int:
    return min(field.max_length, INPUT_LIMIT)


def _too_long(field: FormField) -> bool:
    return len(field.value) > _limit(field)


def _choice(field: FormField) -> dict[str, Any]:
    """A choice field: checkboxes (several; Slack shows at most 10) or a static select."""
    numbered = list(enumerate(field.choices, start=1))
    options = [
        {"text": _plain(label[:CHOICE_LABEL_LIMIT]), "value": str(number)}
        for number, label in numbered
    ]
    picked = set(chosen(field.value, len(options)))
    initial = [
        option for (number, _), option in zip(numbered, options, strict=True) if number in picked
    ]
    element: dict[str, Any] = {"action_id": VALUE_ACTION, "options": options}
    if field.multiple:
        element["type"] = (
            "checkboxes" if len(options) <= CHECKBOXES_LIMIT else "multi_static_select"
        )
        if initial:
            element["initial_options"] = initial
    else:
        element["type"] = "static_select"
        element["placeholder"] = _plain("Pick one")
        if initial:
            element["initial_option"] = initial[0]
    return {
        "type": "input",
        "block_id": field.name,
        "optional": not field.required,
        "label": _plain(field.label),
        "element": element,
    }


def _input(field: FormField) -> dict[str, Any]:
    if field.choices:
        return _choice(field)
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": VALUE_ACTION,
        "multiline": field.multiline,
        "max_length": _limit(field),
    }
    too_long = _too_long(field)
    if field.value and not too_long:
        element["initial_value"] = field.value
    if field.hint:
        element["placeholder"] = _plain(field.hint)
    block = {
        "type": "input",
        "block_id": field.name,
        "optional": not field.required or too_long,
        "label": _plain(field.label),
        "element": element,
    }
    if too_long:
        block["hint"] = _plain(kept_note(len(field.value), _limit(field)))
    return block


def _plain(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def view_errors(problems: Sequence[FieldProblem]) -> dict[str, str]:
    """``response_action: errors``: each message under its field's input block."""
    return {p.field: p.message[:ERROR_LIMIT] for p in problems}


def form_submit_from(body: Mapping[str, Any]) -> FormSubmit:
    """A ``view_submission`` of one of our modals → :class:`FormSubmit`.

    The event id is the view's id with a digest of the values: Slack never retries a
    submission, and the same modal submitted again after a refusal has new values.
    """
    view = body.get("view")
    user = body.get("user")
    if not isinstance(view, Mapping) or not isinstance(user, Mapping):
        raise PayloadError("Slack view_submission payload has no view or user")
    team = str((body.get("team") or {}).get("id") or user.get("team_id") or "")
    callback = str(view.get("callback_id") or "")
    kind, _, target = callback.removeprefix(FORM_PREFIX).partition(":")
    try:
        metadata = json.loads(str(view.get("private_metadata") or "{}"))
        channel = str(metadata["channel"])
        kept = metadata.get(KEPT) or []
    except (ValueError, KeyError, TypeError, AttributeError):
        raise PayloadError("Slack view_submission has no channel in private_metadata") from None
    if not team or not kind or not channel or not user.get("id"):
        raise PayloadError("Slack view_submission payload lacks a team, form, channel or user")
    values = _values(view.get("state"))
    for name in kept if isinstance(kept, list) else ():
        if not values.get(str(name), "").strip():  # left empty: the text stays as it is
            values.pop(str(name), None)
    digest = hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:16]
    return FormSubmit(
        event_id=f"view:{view.get('id') or callback}:{digest}",
        channel=channel_ref(team, channel),
        member=member_ref(team, str(user["id"]), str(user.get("name") or "")),
        kind=kind,
        target=target,
        values=values,
    )


def _values(state: Any) -> dict[str, str]:
    blocks = state.get("values") if isinstance(state, Mapping) else None
    values: dict[str, str] = {}
    for block_id, actions in (blocks or {}).items():
        entry = actions.get(VALUE_ACTION) if isinstance(actions, Mapping) else None
        if not isinstance(entry, Mapping):
            continue
        if "selected_options" in entry or "selected_option" in entry:
            picked = entry.get("selected_options") or [entry.get("selected_option")]
            numbers = [str(o.get("value")) for o in picked if isinstance(o, Mapping)]
            values[str(block_id)] = " ".join(numbers)
        else:
            values[str(block_id)] = str(entry.get("value") or "")
    return values
