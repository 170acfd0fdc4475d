"""Core forms as Discord modals.

A modal answers an interaction (a slash command or a button press) as its first
response: no deferral before it. It holds at most five text inputs, which is why a core
form has at most five fields. Discord cannot show an error under a field, so a refused
submission is answered with a private message naming the field and repeating the input.
A field's text longer than a text input holds (4,000 characters) is never shown cut: the
input is empty and optional, its placeholder says so, and the submission leaves the
field out (its text stays as it is) unless the member typed something in it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.forms import Form

MODAL_PREFIX = "quizbot-form"
TITLE_LIMIT = 45
LABEL_LIMIT = 45
PLACEHOLDER_LIMIT = 100
CUSTOM_ID_LIMIT = 100
MODAL_TIMEOUT_SECONDS = 15 * 60  # Discord drops an unanswered modal's interaction by then

FormSubmitted = Callable[[discord.Interaction, Form, dict[str, str]], Awaitable[None]]


class FormModal(discord.ui.Modal):
    """One core form; its submission goes to ``submitted`` with each field's text."""

    def __init__(self, form: Form, submitted: FormSubmitted) -> None:
        custom_id = f"{MODAL_PREFIX}:{form.kind}:{form.target}"[:CUSTOM_ID_LIMIT]
        super().__init__(
            title=form.title[:TITLE_LIMIT], custom_id=custom_id, timeout=MODAL_TIMEOUT_SECONDS
        )
        self.form = form
        self._submitted = submitted
        self._inputs: list[tuple[str, discord.ui.TextInput[FormModal]]] = []
        self._kept: set[str] = set()  # too long to show: left out unless typed over
        for field in form.fields:
            too_long = len(field.value) > field.max_length
            if too_long:
                self._kept.add(field.name)
            hint = f"Left empty, its {len(field.value):,} characters stay" if too_long else ""
            text_input: discord.ui.TextInput[FormModal] = discord.ui.TextInput(
                label=field.label[:LABEL_LIMIT],
                style=discord.TextStyle.paragraph if field.multiline else discord.TextStyle.short,
                custom_id=field.name,
                default=None if too_long else field.value or None,
                placeholder=(hint or field.hint)[:PLACEHOLDER_LIMIT] or None,
                required=field.required and not too_long,
                max_length=field.max_length,
            )
            self.add_item(text_input)
            self._inputs.append((field.name, text_input))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = {
            name: text_input.value
            for name, text_input in self._inputs
            if name not in self._kept or text_input.value.strip()
        }
        await self._submitted(interaction, self.form, values)
