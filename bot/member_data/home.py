"""A member's own page (Slack's Home tab): reviews due with a Start practice button, the
goal date and the days left, streak and points in each channel they play in, their mastery
chart, and a button for each member setting that exists.

The page is a platform-neutral :class:`Card`; its buttons carry a ``/quiz`` command that the
platform runs as the member typed it in their direct messages with the bot
(:data:`HOME_ACTION`). A new member setting gets its button by adding one
:class:`~bot.kernel.own_views.SettingOnPage` to its feature's face (``settings_on_page``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.away.store import AwayStore
from bot.away.streaks import member_streak
from bot.bank.store import Workspace
from bot.kernel.cards import day_text, plural
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.kernel.own_views import (
    CHANNELS_SHOWN,
    HOME_ACTION,
    IN_CHANNEL,
    SettingOnPage,
    channel_name,
)
from bot.kernel.refs import MemberRef
from bot.kernel.render import Button, Card, CardKind, Field, Image
from bot.kernel.stores import ChannelStore
from bot.learning.neighbours import MemberActivity
from bot.learning.next_review import next_review_text
from bot.learning.service import LearningService
from bot.member_data.store import MemberDataStore
from bot.rounds.store import ReportStore, RoundStore

START_PRACTICE = Button("Start practice", HOME_ACTION, "practice")


@dataclass(frozen=True, slots=True)
class HomePage:
    """The page, and the channel its chart is drawn for (None: no chart)."""

    card: Card
    chart_channel: ChannelSettings | None
    member_id: int | None


class HomePages:
    """Builds each member's page from the stores."""

    def __init__(
        self,
        *,
        data: MemberDataStore,
        learning: LearningService,
        channels: ChannelStore,
        rounds: RoundStore,
        reports: ReportStore,
        recaps: MemberActivity,
        away: AwayStore,
        clock: Clock,
        settings_on_page: Iterable[SettingOnPage],
        default_timezone: str,
    ) -> None:
        self._away = away
        self._data = data
        self._learning = learning
        self._channels = channels
        self._rounds = rounds
        self._reports = reports
        self._recaps = recaps
        self._clock = clock
        self._settings_on_page = settings_on_page
        self._timezone = default_timezone

    async def page(self, member: MemberRef) -> HomePage:
        """The member's page without its chart (quick: a few reads)."""
        now = self._clock.now()
        member_id = await self._data.find_member(member)
        if member_id is None:
            card = Card(
                title=f"{member.label()}: your quiz",
                body="Answer a question in a quiz channel, or practise here, to see your"
                " reviews, streaks and mastery on this page.",
                buttons=(START_PRACTICE,),
            )
            return HomePage(card, None, None)
        fields: list[Field] = []
        mastery = await self._learning.mastery(member_id, now, workspace_of_member(member))
        fields.append(Field("Reviews due", str(mastery.due), inline=True))
        fields.append(Field("Next review", next_review_text(mastery, self._timezone), inline=True))
        goal = await self._learning.store.goal(member_id)
        if goal is None:
            fields.append(Field("Goal", "none (practice aims 30 days ahead)", inline=True))
        else:
            days = (goal - now.date()).days
            left = plural(days, "day") + " left" if days >= 0 else "passed"
            fields.append(Field("Goal", f"{goal:%a %d %b %Y} ({left})", inline=True))
        chart_channel: ChannelSettings | None = None
        for channel_id in (await self._data.member_channels(member_id))[:CHANNELS_SHOWN]:
            channel = await self._channels.get_channel_by_id(channel_id)
            if channel is None:
                continue
            chart_channel = chart_channel or channel
            fields.append(await self.channel_field(channel, member, member_id))
        buttons = [START_PRACTICE]
        for setting in self._settings_on_page:
            for field, button in await setting.show(member_id):
                fields.append(field)
                if button is not None:
                    buttons.append(button)
        if mastery.per_topic:
            topics = ", ".join(f"{t} {round(r * 100)}%" for t, r in mastery.per_topic.items())
            fields.append(Field(f"Mastery on {day_text(mastery.target, self._timezone)}", topics))
        card = Card(
            title=f"{member.label()}: your quiz",
            fields=tuple(fields),
            buttons=tuple(buttons),
            kind=CardKind.INFO,
        )
        return HomePage(card, chart_channel, member_id)

    async def chart(self, member: MemberRef, page: HomePage) -> Image | None:
        """The page's mastery chart (about a tenth of a second of drawing)."""
        if page.chart_channel is None or page.member_id is None:
            return None
        now = self._clock.now()
        target = await self._learning.target(page.member_id, now)
        _, image = await self._recaps.member_activity(
            page.chart_channel, page.member_id, member.label(), now, target
        )
        return image

    async def channel_field(
        self, channel: ChannelSettings, member: MemberRef, member_id: int
    ) -> Field:
        """The member's points and streak in ``channel`` (also on their browser page)."""
        history = await self._reports.member_history(channel.id, member_id)
        open_round = await self._rounds.open_round(channel.id)
        periods = await self._away.periods(member.workspace, [member.member_id])
        current = member_streak(
            history,
            periods.get(member.member_id, ()),
            channel.timezone,
            open_round.id if open_round else None,
        )
        return Field(
            channel_name(channel),
            f"{plural(history.points, 'point')}, streak {current.current} (best {current.best})",
            inline=True,
        )


def workspace_of_member(member: MemberRef) -> Workspace:
    return Workspace(member.platform, member.workspace)


@dataclass(frozen=True, slots=True)
class HomeCommand:
    """A page button's ``/quiz`` command: where it runs (None: the member's direct
    messages; else the platform's id of the channel), its name, words and text."""

    channel_id: str | None
    name: str
    args: tuple[str, ...]
    text: str


def home_command(value: str) -> HomeCommand:
    """``remind off`` (in the member's DMs) or ``@C123 notify on`` (in channel C123)."""
    value = value.strip()
    channel_id: str | None = None
    if value.startswith(IN_CHANNEL):
        where, _, value = value.partition(" ")
        channel_id = where.removeprefix(IN_CHANNEL) or None
    name, _, text = value.strip().partition(" ")
    return HomeCommand(channel_id, name, tuple(text.split()), text)


@runtime_checkable
class ShowsHome(Protocol):
    """A connector with a page of its own for each member (Slack's Home tab)."""

    def show_home(self, pages: HomePages) -> None: ...
