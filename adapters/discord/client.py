"""The discord.py client: intents, the ``/quiz`` tree, persistent buttons, raw events.

It only forwards gateway happenings to an :class:`InboundRouter` (the
platform), which translates them for the core.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands

from adapters.discord.buttons import CardButton
from adapters.discord.commands import QuizGroup, TopicSource
from adapters.discord.responses import error_card, tell

log = logging.getLogger(__name__)


class InboundRouter(Protocol):
    async def ready(self) -> None: ...

    async def resumed(self) -> None: ...

    def disconnected(self) -> None: ...

    async def reaction_added(self, payload: discord.RawReactionActionEvent) -> None: ...

    async def message_created(self, message: discord.Message) -> None: ...

    async def message_edited(self, payload: discord.RawMessageUpdateEvent) -> None: ...

    async def card_button(
        self, interaction: discord.Interaction, action: str, value: str
    ) -> None: ...

    async def command(
        self, interaction: discord.Interaction, name: str, args: tuple[str, ...]
    ) -> None: ...


def quiz_intents() -> discord.Intents:
    """The default intents plus message content (a privileged intent: switch it on in the
    Developer Portal, Bot page, "Message Content Intent")."""
    intents = discord.Intents.default()
    intents.message_content = True
    return intents


class QuizCommandTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        log.error("/quiz failed before reaching the quiz", exc_info=error)
        text = "That command could not be run"
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            text = str(error)
        elif isinstance(error, app_commands.CommandNotFound):
            text = "This command is out of date; try again in a minute"
        try:
            await tell(interaction, error_card(text))
        except discord.HTTPException:
            log.exception("could not tell the member that /quiz failed")


class QuizClient(discord.Client):
    def __init__(
        self,
        router: InboundRouter,
        topics: TopicSource,
        *,
        guild_ready_timeout: float = 2.0,
        max_ratelimit_timeout: float | None = 30.0,
        http_trace: aiohttp.TraceConfig | None = None,
    ) -> None:
        tracing: dict[str, Any] = {"http_trace": http_trace} if http_trace is not None else {}
        super().__init__(
            intents=quiz_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            max_ratelimit_timeout=max_ratelimit_timeout,
            chunk_guilds_at_startup=False,
            # No message cache: every handler works from raw events (the cache is empty
            # after a restart anyway), and a cached message would be updated in place
            # by a later edit before the handler of its creation has read it.
            max_messages=None,
            **tracing,
        )
        self.router = router
        self.tree = QuizCommandTree(self)
        self.tree.add_command(QuizGroup(router.command, topics))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CardButton)

    async def on_ready(self) -> None:
        await self.router.ready()

    async def on_resumed(self) -> None:
        await self.router.resumed()

    async def on_disconnect(self) -> None:
        self.router.disconnected()

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self.router.reaction_added(payload)

    async def on_message(self, message: discord.Message) -> None:
        await self.router.message_created(message)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        await self.router.message_edited(payload)

    async def on_card_button(
        self, interaction: discord.Interaction, action: str, value: str
    ) -> None:
        await self.router.card_button(interaction, action, value)
