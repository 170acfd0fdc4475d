"""``/quiz export me|anki`` and ``/quiz forget me``: a member's own data, privately."""

from __future__ import annotations

from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.cards import info, plural
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused
from bot.kernel.platform import DataFile, DirectMessages, SendsFiles
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Response
from bot.member_data.service import MemberDataService
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand

EXPORT_ME = "me"
EXPORT_ANKI = "anki"
CONFIRM = "confirm"

ERASES = (
    "your answers (and the votes and reviews on them), the reviews you wrote, grades, memory"
    " cards, goal, practice sessions, daily reminder, notices, time away, your mock-interview"
    " opt-in and the ratings you were given, bonuses, flags and suggestions not approved, in"
    " every channel of this workspace, and the messages queued for your direct messages or"
    " naming you"
)
KEEPS = (
    "Nothing personal is kept, and nothing is taken from your teammates: your name leaves the"
    " leaderboards, votes you gave and key points your reviews ticked stay in others' points"
    " without your name, points earned"
    " reviewing your answers stay with their writers, a partner's mock interviews with you"
    " stay in their history with a former member, and an approved suggestion stays a"
    " question of the bank."
)


@dataclass(frozen=True, slots=True)
class ExportData(QuizCommand):
    """``/quiz export me`` (all their data) or ``/quiz export anki`` (a deck)."""

    what: str


@dataclass(frozen=True, slots=True)
class ForgetMe(QuizCommand):
    """``/quiz forget me``: explain; ``/quiz forget me confirm``: erase."""

    confirmed: bool


class MemberDataCommands:
    """The handlers of the member-data subcommands."""

    def __init__(self, data: MemberDataService, clock: Clock) -> None:
        self._data = data
        self._clock = clock

    async def export(self, ctx: CommandContext, command: ExportData) -> Response:
        platform = ctx.platform
        if not isinstance(platform, SendsFiles):
            raise Refused("This platform cannot send you a file.")
        now, member = self._clock.now(), ctx.event.member
        file: DataFile | None
        if command.what == EXPORT_ANKI:
            file = await self._data.anki(member, ctx.event.channel, now)
            if file is None:
                return Response(
                    info(
                        "Nothing for Anki yet",
                        "The deck holds the questions you graded missed or partly and those"
                        " due for review: grade your answers after the reveal first.",
                    )
                )
        else:
            file = await self._data.export(member, now)
            if file is None:
                return Response(info("No data of yours", "The quiz has stored nothing of you."))
        where = await platform.send_file(member, file)
        return Response(info(f"Sent: {file.filename}", f"{file.comment} It is {where}."))

    async def forget(self, ctx: CommandContext, command: ForgetMe) -> Response:
        if not command.confirmed:
            return Response(
                info(
                    "Erase your quiz data?",
                    f"This deletes {ERASES}. It cannot be undone; `/quiz export me` first"
                    f" if you want a copy. {KEEPS}\nTo go ahead: `/quiz forget me {CONFIRM}`",
                )
            )
        member = ctx.event.member
        directs: list[ChannelRef] = []
        if isinstance(ctx.platform, DirectMessages):  # sends queued for their DMs go too
            directs.append(await ctx.platform.open_direct(member))
        erased = await self._data.erase(member, self._clock.now(), directs)
        if erased is None:
            return Response(info("Nothing to erase", "The quiz has stored nothing of you."))
        return Response(
            info(
                "Your quiz data is erased",
                f"{plural(erased.total, 'row')} deleted in one go: {ERASES}. {KEEPS}",
            )
        )


def forget_command(arguments: Arguments) -> ForgetMe:
    """Only ever the member's own data: ``me`` says so, and is the default."""
    return ForgetMe(confirmed=bool(arguments.get(CONFIRM)))


EXPORT = Subcommand(
    "export",
    "your own data as a file (me), or an Anki deck of what you missed or is due (anki)",
    "/quiz export anki",
    params=(
        Param(
            "what",
            ParamKind.CHOICE,
            "me: all your data (JSON and CSV); anki: a deck of your weak and due questions",
            choices=(EXPORT_ME, EXPORT_ANKI),
            required=True,
        ),
    ),
    build=lambda a: ExportData(str(a.get("what", EXPORT_ME))),
    handler=MemberDataCommands.export,
    needs_channel=False,
    in_direct=True,
)

FORGET = Subcommand(
    "forget",
    "erase your own data in every channel of the workspace (asks to confirm)",
    "/quiz forget me",
    params=(
        Param("whom", ParamKind.CHOICE, "me: your own data", choices=(EXPORT_ME,), required=True),
        Param(CONFIRM, ParamKind.FLAG, "erase now, without asking again"),
    ),
    build=forget_command,
    handler=MemberDataCommands.forget,
    needs_channel=False,
    in_direct=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(110, EXPORT),
    Listed(120, FORGET),
)
