"""The one mention a Discord message of the bot may ping: the role a question card names,
and how an admin names that role in ``/quiz config ping``.

Every message goes out with ``allowed_mentions`` that let nothing ping; a card carrying a
role (``/quiz config ping``) gets that role's mention as its content and an
``allowed_mentions`` naming that role alone, so the text of a member's answer quoted in a
card still pings nobody.
"""

from __future__ import annotations

import re

import discord

from bot.kernel.render import Card

NO_MENTIONS = discord.AllowedMentions.none()
ROLE_ID = re.compile(r"\d{1,20}")
ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")  # what Discord puts in an option for "@role"
ROLE_FORM = "a Discord role (@role, or its id)"


def mentioned_role(typed: str) -> str | None:
    """The id of the role ``typed`` mentions (``<@&730000000000000009>``), else None."""
    found = ROLE_MENTION.fullmatch(typed)
    return found.group(1) if found else None


def role_ping(card: Card) -> tuple[str | None, discord.AllowedMentions]:
    """The message content and allowed mentions for the card's first message."""
    if not ROLE_ID.fullmatch(card.ping):
        return None, NO_MENTIONS
    role = discord.Object(int(card.ping))
    allowed = discord.AllowedMentions(everyone=False, users=False, roles=[role], replied_user=False)
    return f"<@&{card.ping}>", allowed
