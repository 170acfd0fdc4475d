"""``/quiz notify on|off`` and ``/quiz notify``: a member's opt-in notices in a channel."""

from __future__ import annotations

from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.members import MemberIds
from bot.kernel.platform import DirectMessages
from bot.kernel.render import Response
from bot.notices.cards import notify_card
from bot.notices.store import NoticeStore
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand

NO_DIRECT_MESSAGES = "Notices come as direct messages, which this platform does not offer."


@dataclass(frozen=True, slots=True)
class Notify(QuizCommand):
    """Turn the member's notices in the channel on or off (None: show them)."""

    on: bool | None


class NoticeCommands:
    """The handler of ``/quiz notify``."""

    def __init__(self, notices: NoticeStore, members: MemberIds, clock: Clock) -> None:
        self._notices = notices
        self._members = members
        self._clock = clock

    async def notify(self, ctx: CommandContext, command: Notify) -> Response:
        channel = ctx.quiz
        member_id = await self._members.member_id(ctx.event.member)
        if command.on is None:
            on = await self._notices.is_subscribed(channel.id, member_id)
            return Response(notify_card(on, channel))
        if not command.on:
            await self._notices.unsubscribe(channel.id, member_id)
            return Response(notify_card(False, channel))
        platform = ctx.platform
        if not isinstance(platform, DirectMessages):
            raise Refused(NO_DIRECT_MESSAGES)
        direct = await platform.open_direct(ctx.event.member)
        await self._notices.subscribe(channel.id, member_id, direct, self._clock.now())
        return Response(notify_card(True, channel))


def notify_command(arguments: Arguments) -> Notify:
    state = arguments.get("state")
    return Notify(None if state is None else state == "on")


NOTIFY = Subcommand(
    "notify",
    "a direct message when this channel's question posts (and a last call, if the channel"
    " has one); off stops them",
    "/quiz notify on",
    params=(
        Param(
            "state",
            ParamKind.CHOICE,
            "on: tell me when a question posts; off: stop",
            choices=("on", "off"),
        ),
    ),
    build=notify_command,
    handler=NoticeCommands.notify,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(140, NOTIFY),)
