"""A member's own page (Slack's Home tab): reviews due with a Start practice button, the
goal date and the days left, streak and points in each channel they play in, their mastery
chart, and a button for each member setting that exists.

The page is a platform-neutral :class:`Card`; its buttons carry a ``/quiz`` command that the
platform runs as the member typed it in their direct messages with the bot
(:data:`HOME_ACTION`). A new member setting gets its button by adding one
:class:`SettingOnPage` to the ``settings_on_page`` the composition gives :class:`HomePages`:
the one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.away.periods import is_away
from bot.away.store import AwayStore
from bot.away.streaks import member_streak
from bot.bank.store import Workspace
from bot.kernel.cards import day_text, plural
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings
from bot.kernel.refs import MemberRef
from bot.kernel.render import Button, Card, CardKind, Field, Image
from bot.kernel.stores import ChannelStore
from bot.learning.next_review import next_review_text
from bot.learning.service import LearningService
from bot.member_data.store import MemberDataStore
from bot.notices.store import NoticeStore
from bot.recaps.weekly import WeeklyRecaps
from bot.reminders.store import ReminderStore
from bot.rounds.store import ReportStore, RoundStore

HOME_ACTION = "home"  # a page button: its value is a /quiz command run in the member's DMs
IN_CHANNEL = "@"  # a button's command that runs in a channel starts with @<channel id>
START_PRACTICE = Button("Start practice", HOME_ACTION, "practice")
DEFAULT_REMINDER_TIME = "09:00"
CHANNELS_SHOWN = 10


class SettingOnPage(Protocol):
    """One member setting on the page: how it stands, and the button that flips it (a
    setting of each channel gives one of each per channel)."""

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button | None]]: ...


@dataclass(frozen=True, slots=True)
class ReminderOnPage:
    """The daily review reminder (``/quiz remind``)."""

    reminders: ReminderStore

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button]]:
        reminder = await self.reminders.reminder(member_id)
        if reminder is None:
            on = f"Remind me daily at {DEFAULT_REMINDER_TIME}"
            return [
                (
                    Field("Daily reminder", "off", inline=True),
                    Button(on, HOME_ACTION, f"remind {DEFAULT_REMINDER_TIME}"),
                )
            ]
        state = f"on, {reminder.local_time} {reminder.timezone}"
        off = Button("Turn the reminder off", HOME_ACTION, "remind off")
        return [(Field("Daily reminder", state, inline=True), off)]


@dataclass(frozen=True, slots=True)
class AwayOnPage:
    """Time away (``/quiz away``): back now with one press; going away needs a date, which
    the field says how to give."""

    away: AwayStore
    clock: Clock

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button | None]]:
        until = await self.away.until_for_member(member_id)
        if until is not None and is_away(until, self.clock.now().date()):
            field = Field("Time away", f"away through {until:%a %d %b %Y}", inline=True)
            return [(field, Button("I'm back", HOME_ACTION, "away off"))]
        hint = "not away (`/quiz away until YYYY-MM-DD` in our direct messages)"
        return [(Field("Time away", hint, inline=True), None)]


@dataclass(frozen=True, slots=True)
class NoticesOnPage:
    """Notices of each channel the member answers in (``/quiz notify``, a command of the
    channel: its button names the channel, ``@<channel id> notify on``)."""

    notices: NoticeStore
    data: MemberDataStore
    channels: ChannelStore

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button]]:
        shown = []
        for channel_id in (await self.data.member_channels(member_id))[:CHANNELS_SHOWN]:
            channel = await self.channels.get_channel_by_id(channel_id)
            if channel is None:
                continue
            name = channel_name(channel)
            where = f"{IN_CHANNEL}{channel.ref.channel_id}"
            if await self.notices.is_subscribed(channel_id, member_id):
                field = Field(f"Notices in {name}", "on", inline=True)
                button = Button(f"Stop notices in {name}", HOME_ACTION, f"{where} notify off")
            else:
                field = Field(f"Notices in {name}", "off", inline=True)
                button = Button(f"Notify me in {name}", HOME_ACTION, f"{where} notify on")
            shown.append((field, button))
        return shown


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
        recaps: WeeklyRecaps,
        away: AwayStore,
        clock: Clock,
        settings_on_page: Sequence[SettingOnPage],
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
        self._settings_on_page = tuple(settings_on_page)
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
            fields.append(await self._channel_field(channel, member, member_id))
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

    async def _channel_field(
        self, channel: ChannelSettings, member: MemberRef, member_id: int
    ) -> Field:
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


def channel_name(channel: ChannelSettings) -> str:
    return f"#{channel.ref.name}" if channel.ref.name else channel.ref.channel_id


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
