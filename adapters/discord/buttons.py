"""Persistent card buttons (e.g. Reveal) that keep working after a restart.

The button's ``custom_id`` carries the action and its value
(``quizbot:reveal:42``); a :class:`discord.ui.DynamicItem` registered on the
client matches it on any message, cached or not, so no view has to be kept
in memory for old questions.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.kernel.render import Button

CUSTOM_ID_PREFIX = "quizbot"
CUSTOM_ID_LIMIT = 100
TEMPLATE = re.compile(rf"{CUSTOM_ID_PREFIX}:(?P<action>[a-z_]+):(?P<value>[A-Za-z0-9_.-]*)")

ID_LIMIT = 2**63  # ids the database stores are signed 64-bit integers

PressHandler = Callable[[discord.Interaction, str, str], Awaitable[None]]


def custom_id(action: str, value: str) -> str:
    text = f"{CUSTOM_ID_PREFIX}:{action}:{value}"
    if len(text) > CUSTOM_ID_LIMIT or not TEMPLATE.fullmatch(text):
        raise ValueError(f"button action {action!r} / value {value!r} cannot form a custom id")
    return text


def valid_button_value(value: str) -> bool:
    """A value the core can use: a number only when it fits a stored id (a forged
    ``quizbot:reveal:`` + 30 nines would overflow the database driver)."""
    return not value.isdigit() or int(value) < ID_LIMIT


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A card button whose press is handed to the client's ``on_card_button``."""

    def __init__(self, action: str, value: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action.title(),
                style=discord.ButtonStyle.primary,
                custom_id=custom_id(action, value),
            )
        )
        self.action = action
        self.value = value

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CardButton:
        label = item.label if isinstance(item, discord.ui.Button) else ""
        return cls(match["action"], match["value"], label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        on_press: PressHandler | None = getattr(interaction.client, "on_card_button", None)
        if on_press is None:
            raise RuntimeError("the Discord client has no on_card_button handler")
        await on_press(interaction, self.action, self.value)


def view_for(buttons: Sequence[Button]) -> discord.ui.View | None:
    """A view holding the card's buttons, already stopped: presses are routed by the
    registered :class:`CardButton` template, not by this in-memory view."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(CardButton(button.action, button.value, button.label))
    view.stop()
    return view
