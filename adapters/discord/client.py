"""The discord.py client: intents, the ``/quiz`` tree, persistent buttons, raw events.

It only forwards gateway happenings to an :class:`InboundRouter` (the
platform), which translates them for the core.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands
from discord.state import ConnectionState

from adapters.discord.buttons import CardButton
from adapters.discord.command_shape import mismatch
from adapters.discord.forms import is_form_id
from adapters.discord.frames import FrameGuard, GuardedShardedState, GuardedState
from adapters.discord.responses import COMMAND_CHANGED, tell, unless_gone
from adapters.discord.slash_commands import ADMIN_COMMAND, QuizGroup, TopicSource
from bot.kernel import cards

log = logging.getLogger(__name__)

IDENTIFY_INTERVAL = 5.0
OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


class InboundRouter(Protocol):
    """Where the discord.py client hands gateway happenings (the platform)."""

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

    async def form_submitted(self, interaction: discord.Interaction) -> None: ...


def quiz_intents() -> discord.Intents:
    """The default intents plus message content (a privileged intent: switch it on in the
    Developer Portal, Bot page, "Message Content Intent"). DM messages (private practice)
    are in the defaults; said here so nobody drops them."""
    intents = discord.Intents.default()
    intents.message_content = True
    intents.dm_messages = True
    return intents


class QuizCommandTree(app_commands.CommandTree[Any]):
    """The slash command tree, answering a failed or outdated command itself."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Let through only interactions that fit the registered ``/quiz`` (see
        :mod:`adapters.discord.command_shape`); tell the member about the others."""
        data = interaction.data
        name = data.get("name") if isinstance(data, dict) else None
        group = self.get_command(name if name == ADMIN_COMMAND else "quiz")
        if not isinstance(group, app_commands.Group):
            return True
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        reason = mismatch(group, interaction.data, autocomplete=autocomplete)
        if reason is None:
            return True
        if autocomplete:
            log.info("a /quiz autocomplete does not fit the command (%s); no choices", reason)
            with unless_gone("answering an autocomplete that does not fit"):
                await interaction.response.autocomplete([])
            return False
        log.info("a /quiz interaction does not fit the command (%s); told to try again", reason)
        with unless_gone("answering an outdated /quiz"):
            await tell(interaction, cards.error(COMMAND_CHANGED))
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        text = "That command could not be run"
        if isinstance(error, OUTDATED):
            log.info("/quiz does not fit the registered command: %s", error)
            text = COMMAND_CHANGED
        elif isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            log.info("/quiz refused before reaching the quiz: %s", error)
            text = str(error)
        else:
            log.error("/quiz failed before reaching the quiz", exc_info=error)
        try:
            with unless_gone("telling the member that /quiz failed"):
                await tell(interaction, cards.error(text))
        except discord.HTTPException:
            log.exception("could not tell the member that /quiz failed")


class QuizClient(discord.Client):
    """The discord.py client: intents, the /quiz tree, persistent buttons, raw events."""

    def __init__(
        self,
        router: InboundRouter,
        topics: TopicSource,
        *,
        guild_ready_timeout: float = 2.0,
        max_ratelimit_timeout: float | None = 30.0,
        http_trace: aiohttp.TraceConfig | None = None,
        **sharding: Any,
    ) -> None:
        self.frame_guard = FrameGuard()  # before super().__init__, which builds the state
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
            **sharding,
        )
        self.router = router
        self.tree = QuizCommandTree(self)
        self.tree.add_command(QuizGroup(router.command, topics))
        self.tree.add_command(QuizGroup(router.command, topics, name=ADMIN_COMMAND))

    def _get_state(self, **options: Any) -> ConnectionState[Any]:
        return GuardedState(
            self.frame_guard,
            dispatch=self.dispatch,
            handlers=self._handlers,
            hooks=self._hooks,
            http=self.http,
            **options,
        )

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

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A submitted form goes by its custom id, not by a modal kept in memory."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data = interaction.data
        if data is not None and is_form_id(data.get("custom_id")):
            await self.router.form_submitted(interaction)


class ShardedQuizClient(QuizClient, discord.AutoShardedClient):
    """The quiz client running some of the bot's shards (one gateway connection each)."""

    def __init__(
        self,
        router: InboundRouter,
        topics: TopicSource,
        *,
        shard_ids: Sequence[int],
        shard_count: int,
        identify_interval: float = IDENTIFY_INTERVAL,
        **options: Any,
    ) -> None:
        super().__init__(
            router, topics, shard_ids=list(shard_ids), shard_count=shard_count, **options
        )
        self._identify_interval = identify_interval

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space the shards' IDENTIFYs (Discord allows one per 5 seconds at the default
        ``max_concurrency`` of 1); discord.py's own hook waits the same 5 seconds."""
        if not initial:
            await asyncio.sleep(self._identify_interval)

    def _get_state(self, **options: Any) -> GuardedShardedState:
        return GuardedShardedState(
            self.frame_guard,
            dispatch=self.dispatch,
            handlers=self._handlers,
            hooks=self._hooks,
            http=self.http,
            **options,
        )

    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard that identified again after the start (a new session) may have missed
        events: treat it like a READY. At the start, on_ready comes once all are ready."""
        if self.is_ready():
            await self.router.ready()
