"""``/quiz dashboard``: a private link to the lead's page of the channel (admins), to the
member's own page (``me``), or whether the member's rows show on the lead's page
(``share on|off``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.dashboard.pages import DashboardPages, NoDashboard
from bot.dashboard.store import DashboardStore
from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.clock import Clock
from bot.kernel.dashboard_views import DashboardPage
from bot.kernel.errors import Refused
from bot.kernel.members import MemberIds
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand

TEAM, ME, SHARE = "team", "me", "share"
ON, OFF = "on", "off"


@dataclass(frozen=True, slots=True)
class OpenDashboard(QuizCommand):
    """``/quiz dashboard [team|me]``: a link; ``/quiz dashboard share [on|off]``."""

    what: str
    share: bool | None = None  # with share: on, off, or None (tell how it stands)


def dashboard_command(arguments: Arguments) -> OpenDashboard:
    what = str(arguments.get("what", TEAM))
    state = arguments.get("state")
    if state is not None and what != SHARE:
        raise ValueError(f"on and off go with share: `/quiz dashboard share {state}`")
    return OpenDashboard(what, None if state is None else state == ON)


class DashboardCommands:
    def __init__(
        self, pages: DashboardPages, store: DashboardStore, members: MemberIds, clock: Clock
    ) -> None:
        self._pages = pages
        self._store = store
        self._members = members
        self._clock = clock

    async def dashboard(self, ctx: CommandContext, command: OpenDashboard) -> Response:
        channel, event = ctx.quiz, ctx.event
        if command.what == SHARE:
            return await self._share(ctx, command.share)
        if command.what == TEAM:
            platform = ctx.platform
            if platform is None or not await platform.is_admin(event.member, event.channel):
                rule = platform.admin_rule if platform is not None else "an admin"
                raise Refused(
                    f"The team's page is for the quiz admins of this channel ({rule});"
                    " your own page: `/quiz dashboard me`."
                )
        page = DashboardPage.LEAD if command.what == TEAM else DashboardPage.MEMBER
        try:
            url = await self._pages.link(page, channel, event.member)
        except NoDashboard as off:
            raise Refused(str(off)) from None
        minutes = self._pages.settings.link_minutes
        what = "The team's page of this channel" if page is DashboardPage.LEAD else "Your page"
        return Response(
            info(
                what,
                f"{url}\nRead-only, for you alone: the link works for {minutes} minutes and"
                " shows this channel only. Ask again for a new one.",
            )
        )

    async def _share(self, ctx: CommandContext, share: bool | None) -> Response:
        channel, member = ctx.quiz, ctx.event.member
        member_id = await self._members.member_id(member)
        if share is None:
            shared = member_id in await self._store.sharing(channel.id)
            state = "shown by name" if shared else "only in aggregates of three or more"
            return Response(
                info(
                    f"On the team's page your rows are {state}.",
                    "Change it with `/quiz dashboard share on` or `/quiz dashboard share off`.",
                )
            )
        changed = await self._store.set_sharing(channel.id, member_id, share, self._clock.now())
        if share:
            text = "The lead's page of this channel now shows your recall per topic by name."
        else:
            text = (
                "The lead's page of this channel shows you only inside aggregates of at least"
                " three members."
            )
        return Response(info(text if changed else f"Already so. {text}"))


DASHBOARD = Subcommand(
    "dashboard",
    "a private link to a read-only page: the team's (admins), yours (me); share on|off:"
    " show your rows by name on the team's page",
    "/quiz dashboard me",
    params=(
        Param(
            "what",
            ParamKind.CHOICE,
            "share: your rows on the team's page; team (admins): the team's page; me: yours",
            # share first: what the on|off after it belongs to
            choices=(SHARE, TEAM, ME),
            label="page",
            admin_choices=(TEAM,),
        ),
        Param(
            "state",
            ParamKind.CHOICE,
            "with share: on or off",
            choices=(ON, OFF),
            needs="what",
        ),
    ),
    build=dashboard_command,
    handler=DashboardCommands.dashboard,
)

SUBCOMMANDS: tuple[Listed, ...] = (Listed(305, DASHBOARD),)
