"""Every inbound event goes through the same steps, once and in this order (bolt's
middleware is the model):

0. every text it carries is made storable (:mod:`bot.kernel.storable_text`: a NUL or a
   lone surrogate becomes U+FFFD), so no store refuses what a member typed;
1. the bot's own messages and reactions are ignored;
2. answers, edits and reactions outside a quiz channel are ignored;
3. a duplicate delivery (a Slack retry, a gateway replay) is dropped by its event id
   (a reaction's and a direct message's are checked and recorded in the transaction of
   their effect);
4. a command that acts on a channel, run in direct messages with the bot, is refused;
5. an admin-only command from a member who is not an admin is refused;
6. the event is handled;

and whatever error comes out is turned into what the member is told in one place,
:func:`reply_for`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from bot.kernel import cards
from bot.kernel.clock import Clock
from bot.kernel.errors import DuplicateDelivery, NotRecorded, Refused
from bot.kernel.events import (
    ButtonPress,
    Command,
    DirectMessage,
    Event,
    FormSubmit,
    Reaction,
    Reply,
)
from bot.kernel.forms import TYPED_BACK, typed_back
from bot.kernel.log_context import about
from bot.kernel.metrics import Metrics
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card, Response
from bot.kernel.storable_text import storable_event
from bot.kernel.stores import DeliveryStore
from bot.quiz_command.registry import Invocation

log = logging.getLogger(__name__)

Handler = Callable[[Event, Platform], Awaitable[Response | None]]
# An answer or its edit, with the quiz channel the chain looked up for it.
ReplyHandler = Callable[[Reply, ChannelSettings, Platform], Awaitable[None]]
CommandHandler = Callable[[Command, Invocation], Awaitable[Response | None]]
Parser = Callable[[str, Sequence[str], str | None], Invocation]
FAILURE = "Something went wrong; it was logged. Try again."


def reply_for(error: Exception) -> Card:
    """What the member is told when handling their command or button press failed."""
    if isinstance(error, Refused):
        return cards.error(str(error))
    return cards.error(FAILURE)


def _with_typed_back(card: Card, values: Mapping[str, str]) -> Card:
    """A refusal of a form followed by what the member typed in it."""
    typed = typed_back(values)
    if not typed:
        return card
    return replace(card, body=f"{card.body}\n\n{TYPED_BACK}\n{typed}")


class DeliveryLog:
    """Which inbound event ids were already handled (``processed_events``)."""

    def __init__(self, deliveries: DeliveryStore, clock: Clock, metrics: Metrics) -> None:
        self._deliveries = deliveries
        self._clock = clock
        self._metrics = metrics

    async def first_delivery(self, platform: str, event_id: str) -> bool:
        """Record the event id; False for a duplicate delivery (a retry or a replay)."""
        if await self._deliveries.mark_event_processed(platform, event_id, self._clock.now()):
            return True
        self.duplicate(platform)
        return False

    async def seen_before(self, platform: str, event_id: str) -> bool:
        """True for a delivery whose effect was already recorded (a retry or a replay)."""
        if await self._deliveries.event_processed(platform, event_id):
            self.duplicate(platform)
            return True
        return False

    def duplicate(self, platform: str) -> None:
        """A redelivery was dropped (found where its effect recorded its id)."""
        self._metrics.duplicate_event(platform)

    async def done(self, platform: str, event_id: str) -> None:
        await self._deliveries.mark_event_processed(platform, event_id, self._clock.now())


class RoundsHere(Protocol):
    """What the inbound steps ask of the rounds: a channel's quiz settings (cached), and a
    reaction taken in its round."""

    async def channel(self, ref: ChannelRef) -> ChannelSettings | None: ...

    async def on_reaction(self, event: Reaction, channel: ChannelSettings) -> bool: ...


class InboundChain:
    """Runs the inbound steps in order and maps their errors to replies, once for all
    events and platforms."""

    def __init__(
        self,
        rounds: RoundsHere,
        platforms: Mapping[str, Platform],
        deliveries: DeliveryLog,
        handler: Handler,
        on_reply: ReplyHandler,
        run_command: CommandHandler,
        parse: Parser,
    ) -> None:
        self._rounds = rounds
        self._platforms = platforms
        self._deliveries = deliveries
        self._handler = handler
        self._on_reply = on_reply
        self._run_command = run_command
        self._parse = parse

    async def __call__(self, event: Event) -> Response | None:
        """Raises :class:`~bot.kernel.errors.NotRecorded` (chained from the cause) when an answer,
        edit, reaction or direct message could not be recorded, so the adapter never
        acknowledges it and it is delivered again. A command or a button that fails gets
        an error card, and so does a direct message that was refused."""
        event = storable_event(event)
        try:
            return await self._steps(event)
        except NotRecorded:
            raise
        except Exception as error:
            if isinstance(event, Reply | Reaction) or (
                isinstance(event, DirectMessage) and not isinstance(error, Refused)
            ):
                kind = type(event).__name__.lower()
                raise NotRecorded(f"{kind} {event.event_id} was not recorded: {error}") from error
            if not isinstance(error, Refused):
                log.exception(
                    "failed to handle %s %s",
                    type(event).__name__,
                    event.event_id,
                    extra=about(event.channel),
                )
            if isinstance(event, FormSubmit):  # a refused form repeats what was typed
                return Response(_with_typed_back(reply_for(error), event.values))
            return Response(reply_for(error))

    async def _steps(self, event: Event) -> Response | None:
        platform = self._platforms[event.channel.platform]
        if isinstance(event, Reply | Reaction):
            await self._in_channel(event, platform)
            return None
        if isinstance(event, DirectMessage) and event.is_bot:
            return None
        if isinstance(event, DirectMessage):
            # Its id is recorded in the transaction of its effect (a practice answer's step;
            # a help text's outbox key is the event's): a kill or a failure before that
            # leaves nothing recorded, and the redelivery is handled, not dropped.
            try:
                return await self._handler(event, platform)
            except DuplicateDelivery:
                self._deliveries.duplicate(platform.name)
                return None
        if isinstance(event, Command | ButtonPress):
            if not await self._deliveries.first_delivery(platform.name, event.event_id):
                return None
            if isinstance(event, Command):
                # Parsed once: the rules below and the runner read the same invocation.
                invocation = self._parse(event.name, event.args, event.text)
                if event.direct and not invocation.in_direct:
                    raise Refused(invocation.direct_refusal())
                await self._check_admin(event, invocation, platform)
                return await self._run_command(event, invocation)
            return await self._handler(event, platform)
        if isinstance(event, FormSubmit):
            # Recorded only once accepted: a refused form is submitted again (Slack keeps
            # the same view) and must not look like a repeat.
            if await self._deliveries.seen_before(platform.name, event.event_id):
                return None
            response = await self._handler(event, platform)
            if response is not None and not response.problems:
                await self._deliveries.done(platform.name, event.event_id)
            return response
        raise AssertionError(f"unknown event {event!r}")

    async def _in_channel(self, event: Reply | Reaction, platform: Platform) -> None:
        """An answer, an edit or a reaction: the channel is looked up once, here, and the
        event ignored outside a quiz channel."""
        if event.is_bot:
            return
        channel = await self._rounds.channel(event.channel)
        if channel is None:
            return
        if isinstance(event, Reaction):
            # Its id is recorded in the transaction of its effect, and only when that
            # changed something: a redelivery is refused there, before any change.
            try:
                await self._rounds.on_reaction(event, channel)
            except DuplicateDelivery:
                self._deliveries.duplicate(platform.name)
            return
        if event.edited:
            # Its id is recorded only *after* its effect committed: recorded first, the
            # redelivery of an edit whose work then failed would look like a duplicate and
            # be lost. Its effect is idempotent, so two racing deliveries count once.
            if await self._deliveries.seen_before(platform.name, event.event_id):
                return
            await self._on_reply(event, channel, platform)
            await self._deliveries.done(platform.name, event.event_id)
            return
        # A new answer: the store records it once per event id, in the same transaction.
        await self._on_reply(event, channel, platform)

    async def _check_admin(
        self, event: Command, invocation: Invocation, platform: Platform
    ) -> None:
        if invocation.admin and not await platform.is_admin(event.member, event.channel):
            raise Refused(
                f"`/quiz {event.name}` needs a quiz admin of this channel ({platform.admin_rule})."
            )
