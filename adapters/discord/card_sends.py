"""A card sent as Discord messages: its parts in order, each with a nonce and a footer
marker from its outbox key, resumed after the parts an earlier attempt recorded."""

from __future__ import annotations

import discord

from adapters.discord.buttons import view_for
from adapters.discord.errors import platform_errors
from adapters.discord.mentions import NO_MENTIONS, role_ping
from adapters.discord.nonce import marker_for_key, nonce_for_key
from adapters.discord.render import attachments, message_count, render_card
from adapters.unfinished_sends import SendProgress
from bot.kernel.errors import PlatformError
from bot.kernel.render import Card


async def send_card(
    target: discord.PartialMessageable, card: Card, key: str, where: str, progress: SendProgress
) -> str:
    """Send the card's parts to ``target``; the id of the first part stands for the card.
    ``progress`` keeps the parts of a card of several messages as they are posted."""
    count = message_count(card)
    groups = render_card(card, [marker_for_key(key, part) for part in range(count)])
    # A retry skips the parts recorded as posted (after a restart too). A part posted
    # but not recorded is sent again with the same nonce, and Discord (enforce_nonce)
    # answers with the message it already has for a few minutes.
    posted = (await progress.unfinished_card(key) or []) if count > 1 else []
    if count > 1 and not posted:
        await progress.begin_card(key)
    for part, embeds in enumerate(groups):
        if part < len(posted):
            continue
        view = view_for(card.buttons) if part == 0 else None
        files = attachments(card, part)
        content, mentions = role_ping(card) if part == 0 else (None, NO_MENTIONS)
        with platform_errors(where):
            if view is None:
                sent = await target.send(
                    content,
                    embeds=embeds,
                    files=files,
                    nonce=nonce_for_key(key, part),
                    allowed_mentions=mentions,
                )
            else:
                sent = await target.send(
                    content,
                    embeds=embeds,
                    files=files,
                    view=view,
                    nonce=nonce_for_key(key, part),
                    allowed_mentions=mentions,
                )
        if count > 1:
            await progress.record_card_part(key, str(sent.id))
        posted.append(str(sent.id))
    if count > 1:
        await progress.finish_card(key)
    if not posted:
        raise PlatformError(f"{where}: the card rendered to no message")
    return posted[0]
