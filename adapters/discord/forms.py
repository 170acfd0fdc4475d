"""Core forms as Discord modals.

A modal answers an interaction (a slash command or a button press) as its first
response: no deferral before it. It holds at most five text inputs, which is why a core
form has at most five fields. Discord cannot show an error under a field, so a refused
submission is answered with a private message naming the field and repeating the input.

A modal's custom id carries all its submission needs: the form's kind, its target and
the member it was opened for (``quizbot-form:answer:42:<member id>``). So two members
with the same form open never share an id, and a submission is routed from its custom
id alone: discord.py keeps no modal in memory, and a form opened before a restart is
taken after it. A submission that cannot be routed is answered with what was typed.

A field's text longer than a text input holds (4,000 characters) is never shown cut: the
input is empty and optional, its placeholder says so, and its custom id is marked
(``outline:kept``), so the submission leaves the field out (its text stays as it is)
unless the member typed something in it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import discord

from bot.kernel.forms import CHOICE_LABEL_LIMIT, Form, FormField, chosen, typed_back
from bot.kernel.render import Card, CardKind

MODAL_PREFIX = "quizbot-form"
TITLE_LIMIT = 45
LABEL_LIMIT = 45
PLACEHOLDER_LIMIT = 100
CUSTOM_ID_LIMIT = 100
# The member is optional: ids from before it was added still route (Discord lets only
# the member who opened a modal submit it).
FORM_ID = re.compile(
    rf"{MODAL_PREFIX}:(?P<kind>[a-z_]+):(?P<target>[A-Za-z0-9_.-]*)(?::(?P<member>[0-9]{{1,20}}))?"
)
NESTING_LIMIT = 3  # a submission holds rows (or labels) of inputs: nothing deeper
KEPT = ":kept"  # marks the input of a field too long to show: left empty, it stays as it is
EXPIRED_TITLE = "This form expired"
EXPIRED = (
    "This form expired, so nothing was saved. Here is what you wrote: open the form again"
    " and paste it."
)


@dataclass(frozen=True, slots=True)
class FormRoute:
    """What a submitted modal's custom id says: the form, and whose it is."""

    kind: str
    target: str
    member: int | None  # None in an id from before members were part of it


def form_custom_id(form: Form, member_id: int) -> str:
    """The custom id of ``form`` opened for ``member_id``; ValueError when it cannot carry
    the form within Discord's 100 characters (a submission could not be routed)."""
    text = f"{MODAL_PREFIX}:{form.kind}:{form.target}:{member_id}"
    if len(text) > CUSTOM_ID_LIMIT or not FORM_ID.fullmatch(text):
        raise ValueError(
            f"the form {form.kind!r} / {form.target[:40]!r} does not fit a Discord custom id"
        )
    return text


def is_form_id(custom_id: object) -> bool:
    """Whether a modal's custom id is one of ours (routable or not)."""
    return isinstance(custom_id, str) and custom_id.startswith(f"{MODAL_PREFIX}:")


def form_route(custom_id: object) -> FormRoute | None:
    """The route a submitted custom id carries; None when it carries none."""
    if not isinstance(custom_id, str):
        return None
    match = FORM_ID.fullmatch(custom_id)
    if match is None:
        return None
    member = match["member"]
    return FormRoute(match["kind"], match["target"], int(member) if member else None)


def submitted_values(components: object, depth: int = 0) -> dict[str, str]:
    """Each text input's value by its custom id, from a modal submission's ``components``
    (action rows or labels holding the inputs); whatever is malformed is skipped."""
    values: dict[str, str] = {}
    if not isinstance(components, list) or depth > NESTING_LIMIT:
        return values
    for component in components:
        if not isinstance(component, dict):
            continue
        values.update(submitted_values(component.get("components"), depth + 1))  # a row
        single = component.get("component")  # a label around one input
        if isinstance(single, dict):
            values.update(submitted_values([single], depth + 1))
        custom_id, value = component.get("custom_id"), component.get("value")
        picked = component.get("values")  # a select: the chosen options' values
        if isinstance(custom_id, str) and isinstance(value, str):
            values[custom_id] = value
        elif isinstance(custom_id, str) and isinstance(picked, list):
            values[custom_id] = " ".join(str(p) for p in picked if isinstance(p, str))
    return values if depth else _kept_left_out(values)


def _kept_left_out(values: dict[str, str]) -> dict[str, str]:
    """A field too long to show is left out when nothing was typed in it, else taken."""
    for marked in [name for name in values if name.endswith(KEPT)]:
        typed = values.pop(marked)
        if typed.strip():
            values.setdefault(marked.removesuffix(KEPT), typed)
    return values


def expired_form(values: Mapping[str, str]) -> Card:
    """The answer to a submission that cannot be routed: everything typed, as typed."""
    typed = typed_back(values)
    body = f"{EXPIRED}\n\n{typed}" if typed else EXPIRED
    return Card(title=EXPIRED_TITLE, body=body, kind=CardKind.ERROR)


def _choice(field: FormField) -> discord.ui.Label[FormModal]:
    """A choice field: a select inside a label (a multi-select for ticks)."""
    picked = set(chosen(field.value, len(field.choices)))
    options = [
        discord.SelectOption(
            label=label[:CHOICE_LABEL_LIMIT], value=str(number), default=number in picked
        )
        for number, label in enumerate(field.choices, start=1)
    ]
    select: discord.ui.Select[FormModal] = discord.ui.Select(
        custom_id=field.name,
        options=options,
        min_values=0 if not field.required else 1,
        max_values=len(options) if field.multiple else 1,
        required=field.required,
    )
    return discord.ui.Label(text=field.label[:LABEL_LIMIT], component=select)


class FormModal(discord.ui.Modal):
    """One core form, opened for one member. It is stopped at once, so discord.py does not
    keep it: the submission is routed by its custom id (see :func:`form_route`)."""

    def __init__(self, form: Form, member_id: int) -> None:
        super().__init__(
            title=form.title[:TITLE_LIMIT], custom_id=form_custom_id(form, member_id), timeout=None
        )
        self.form = form
        for field in form.fields:
            if field.choices:
                self.add_item(_choice(field))
                continue
            too_long = len(field.value) > field.max_length
            hint = f"Left empty, its {len(field.value):,} characters stay" if too_long else ""
            text_input: discord.ui.TextInput[FormModal] = discord.ui.TextInput(
                label=field.label[:LABEL_LIMIT],
                style=discord.TextStyle.paragraph if field.multiline else discord.TextStyle.short,
                custom_id=field.name + KEPT if too_long else field.name,
                default=None if too_long else field.value or None,
                placeholder=(hint or field.hint)[:PLACEHOLDER_LIMIT] or None,
                required=field.required and not too_long,
                max_length=field.max_length,
            )
            self.add_item(text_input)
        self.stop()
