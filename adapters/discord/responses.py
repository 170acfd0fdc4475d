"""Answer a slash command or button press with the core's :class:`~bot.kernel.render.Response`.

The interaction is deferred (ephemeral, "thinking") before the core runs, so a
slow database never breaks Discord's 3-second deadline. A private response
becomes ephemeral follow-ups; a public one a normal channel message, after
which the "thinking" placeholder is removed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import discord

from adapters.discord.mentions import NO_MENTIONS
from adapters.discord.render import attachments, render_card
from bot.kernel.render import Card, Response

# Discord error codes of an interaction that can no longer be answered.
INTERACTION_GONE = {
    10062: "expired before it was answered",  # Unknown interaction (3 s / 15 min passed)
    40060: "was already answered",  # a replayed interaction
}
COMMAND_CHANGED = "This command changed; try again (Discord may take a minute to update it)."

log = logging.getLogger(__name__)


@contextmanager
def unless_gone(what: str) -> Iterator[None]:
    """Run an interaction's answer; if Discord says the interaction expired or was
    already answered, log one line and stop there (there is nobody left to tell)."""
    try:
        yield
    except discord.HTTPException as error:
        reason = INTERACTION_GONE.get(error.code)
        if reason is None:
            raise
        log.warning("%s: the interaction %s (Discord %d)", what, reason, error.code)


async def defer(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def tell(interaction: discord.Interaction, card: Card) -> None:
    """Show ``card`` to the interaction's user only."""
    for part, embeds in enumerate(render_card(card)):
        files = attachments(card, part)
        if interaction.response.is_done():
            await interaction.followup.send(
                embeds=embeds, files=files, ephemeral=True, allowed_mentions=NO_MENTIONS
            )
        else:
            await interaction.response.send_message(
                embeds=embeds, files=files, ephemeral=True, allowed_mentions=NO_MENTIONS
            )


async def deliver(interaction: discord.Interaction, response: Response | None) -> None:
    """Send the core's answer to a deferred interaction."""
    if response is None:
        await interaction.delete_original_response()
        return
    if not response.public:
        await tell(interaction, response.card)
        return
    # A partial channel: the channel cache may not know it (e.g. after a restart).
    channel = interaction.client.get_partial_messageable(
        interaction.channel_id or 0, guild_id=interaction.guild_id
    )
    for part, embeds in enumerate(render_card(response.card)):
        await channel.send(
            embeds=embeds, files=attachments(response.card, part), allowed_mentions=NO_MENTIONS
        )
    await interaction.delete_original_response()
