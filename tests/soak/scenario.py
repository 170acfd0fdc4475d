"""The soak's team: channels on daily schedules, five members who each do the same thing
every day, a holiday, a member away, and what they did, noted for the checks.

Each channel posts daily at its own local time, with ``reveal-after 4h`` and a last call
1h before the outline, the weekly recap (Friday 16:00) and pairing (Monday 10:00) left at
their defaults. Its members, relative to the day's slot:

- ann: notices on, a daily reminder, paired; answers at +20m;
- bob: paired; answers at +1h except every third day, and reveals at +2h every third day;
- cat: notices on; never answers (so gets each last call);
- dan: notices on, a daily reminder, paired, away now and then; answers at +40m on even days;
- eve: a daily reminder, paired; answers at +3h30m (after the last call) on even days;

and each who answered grades it at +7h, the grades cycling so reviews come due on all
sorts of days. Every step is a member's event handled by one of the services (replicas
take turns), on the agenda of a :class:`~tests.soak.time_machine.TimeMachine`.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.kernel.events import Command, Event, Reaction, Reply
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import CardKind
from bot.service import QuizService
from questions.pack import Pack
from tests.soak.time_machine import TimeMachine

REVEAL_AFTER = timedelta(hours=4)
LAST_CALL = timedelta(hours=1)
RECAP = (4, time(16, 0))  # weekday, local time: the default recap
PAIRING = (0, time(10, 0))  # the default pairing
ROLES = ("ann", "bob", "cat", "dan", "eve")
SUBSCRIBERS = ("ann", "cat", "dan")
PAIRED = ("ann", "bob", "dan", "eve")
AWAY = "dan"
GRADES = ("missed", "partly", "good", "nailed")
REVEAL_EMOJI = "💡"
GRADE_AFTER = timedelta(hours=7)


def answers_of(n: int) -> dict[str, timedelta]:
    """Who answers on day number ``n``, and how long after the slot (dan not while away)."""
    answers = {"ann": timedelta(minutes=20)}
    if n % 3 != 2:
        answers["bob"] = timedelta(hours=1)
    if n % 2 == 0:
        answers["dan"] = timedelta(minutes=40)
        answers["eve"] = timedelta(hours=3, minutes=30)
    return answers


def reveal_of(n: int) -> timedelta | None:
    """How long after the slot bob reveals the outline on day number ``n``, if he does."""
    return timedelta(hours=2) if n % 3 == 1 else None


def soak_pack(questions: int = 30) -> Pack:
    """Enough questions that a pairing brief always finds one nobody saw this week."""
    topics = ("gpu", "networking", "memory")
    return Pack.model_validate(
        {
            "id": "soak",
            "title": "Soak pack",
            "questions": [
                {
                    "id": f"soak-{n}",
                    "topic": topics[n % len(topics)],
                    "question": f"Soak question {n}?",
                    "outline": f"Outline of soak question {n}.",
                    "follow_ups": [f"Follow-up of {n}?"],
                }
                for n in range(questions)
            ],
        }
    )


def local(day: date, at: time, zone: str) -> datetime:
    """``at`` on ``day`` in ``zone``, in UTC."""
    return datetime.combine(day, at, ZoneInfo(zone)).astimezone(UTC)


@dataclass(frozen=True)
class SoakChannel:
    number: int
    timezone: str
    at: time  # the daily slot
    reminders: dict[str, tuple[time, str]]  # role -> local time and zone of their reminder
    solo: bool = True  # the only channel: members are named by their role alone

    @property
    def ref(self) -> ChannelRef:
        return ChannelRef("fake", "team", f"C{self.number}", f"quiz-{self.number}")

    def member(self, role: str) -> str:
        return role if self.solo else f"{role}{self.number}"

    def slot(self, day: date) -> datetime:
        return local(day, self.at, self.timezone)

    def day_of(self, moment: datetime) -> date:
        return moment.astimezone(ZoneInfo(self.timezone)).date()


@dataclass(frozen=True)
class SoakPlan:
    first_day: date  # a Monday
    days: int
    channels: tuple[SoakChannel, ...]
    holidays: tuple[int, ...] = ()  # day numbers with no question (`/quiz schedule skip`)
    away: tuple[tuple[int, int], ...] = ()  # dan's periods: first and last day number

    @property
    def start(self) -> datetime:
        return min(local(self.first_day, time(0), c.timezone) for c in self.channels)

    @property
    def end(self) -> datetime:
        last = self.first_day + timedelta(days=self.days)
        return max(local(last, time(0), c.timezone) for c in self.channels)

    def within(self, moment: datetime) -> bool:
        return self.start < moment <= self.end

    def holiday_dates(self) -> set[date]:
        return {self.first_day + timedelta(days=n) for n in self.holidays}

    def soak_days(self, channel: SoakChannel) -> list[date]:
        """The channel's local days whose slot falls in the soak, holidays included."""
        days = (self.first_day + timedelta(days=n) for n in range(-1, self.days + 2))
        return [d for d in days if self.within(channel.slot(d))]

    def turns(self, channel: SoakChannel) -> list[tuple[datetime, date]]:
        """The channel's turns of (monthly) season in the soak: local midnight of a month's
        first day, beside the first day of the season it ends."""
        turns = []
        for n in range(-1, self.days + 2):
            day = self.first_day + timedelta(days=n)
            turn = local(day, time(0), channel.timezone)
            if day.day == 1 and self.within(turn):
                turns.append((turn, (day - timedelta(days=1)).replace(day=1)))
        return turns

    def weekly(self, channel: SoakChannel, weekly: tuple[int, time]) -> list[datetime]:
        """The channel's weekly moments (recap, pairing) in the soak."""
        weekday, at = weekly
        days = (self.first_day + timedelta(days=n) for n in range(-1, self.days + 2))
        moments = [local(d, at, channel.timezone) for d in days if d.weekday() == weekday]
        return [m for m in moments if self.within(m)]


@dataclass
class Journal:
    """What the members did that the plan alone does not say (what they do each day is
    ``answers_of`` and ``reveal_of``), for the checks."""

    answered: set[tuple[int, date, str]] = field(default_factory=set)  # (channel, day, role)
    # (member, local date) -> (the reminder's slot, whether a review is due by day's end)
    reminders: dict[tuple[str, date], tuple[datetime, bool]] = field(default_factory=dict)
    away: dict[str, list[tuple[datetime, date]]] = field(default_factory=dict)  # set at, until
    refused: list[str] = field(default_factory=list)  # a member's step the bot refused
    unsaved: list[str] = field(default_factory=list)  # answers handled but never stored

    def is_away(self, member: str, moment: datetime, day: date) -> bool:
        """As the bot decides it: the latest period set by ``moment`` covers ``day``."""
        periods = [until for at, until in self.away.get(member, []) if at <= moment]
        return bool(periods) and day <= periods[-1]


class TeamSoak:
    """Sets the channels up and puts every member's step on the machine's agenda."""

    def __init__(
        self, plan: SoakPlan, services: Sequence[QuizService], machine: TimeMachine
    ) -> None:
        self.plan = plan
        self.services = list(services)
        self.machine = machine
        self.journal = Journal()
        self._events = itertools.count(1)
        self._turn = itertools.count()

    async def set_up(self) -> None:
        """The admins' and members' commands, at the soak's start."""
        for channel in self.plan.channels:
            admin = [
                f"schedule daily {channel.at:%H:%M} {channel.timezone}",
                f"config reveal-after {int(REVEAL_AFTER.total_seconds()) // 3600}h",
                f"config last-call {int(LAST_CALL.total_seconds()) // 3600}h",
                *(f"schedule skip {d.isoformat()}" for d in sorted(self.plan.holiday_dates())),
            ]
            for text in admin:
                await self._command(channel, "admin", text, must=True)
            for role in SUBSCRIBERS:
                await self._command(channel, channel.member(role), "notify on", must=True)
            for role in PAIRED:
                await self._command(channel, channel.member(role), "pair on", must=True)
            for role, (at, zone) in channel.reminders.items():
                await self._command(
                    channel, channel.member(role), f"remind {at:%H:%M} {zone}", must=True
                )

    def put_on_agenda(self) -> None:
        for channel in self.plan.channels:
            self._days_of(channel)
            self._reminder_probes(channel)
            for first, last in self.plan.away:
                self._away(channel, first, last)

    # the members' days

    def _days_of(self, channel: SoakChannel) -> None:
        holidays = self.plan.holiday_dates()
        for day in self.plan.soak_days(channel):
            if day in holidays:
                continue
            n = (day - self.plan.first_day).days
            slot = channel.slot(day)
            for role, after in answers_of(n).items():
                self._at(slot + after, self._answer, channel, day, role)
                grade = GRADES[(n + ROLES.index(role)) % len(GRADES)]
                self._at(slot + GRADE_AFTER, self._grade, channel, day, role, grade)
            reveal = reveal_of(n)
            if reveal is not None:
                self._at(slot + reveal, self._reveal, channel, day, "bob")

    def _away(self, channel: SoakChannel, first: int, last: int) -> None:
        member = channel.member(AWAY)
        day = self.plan.first_day + timedelta(days=first)
        until = self.plan.first_day + timedelta(days=last)
        moment = local(day, time(0, 5), channel.timezone)

        async def go_away() -> None:
            await self._command(channel, member, f"away until {until.isoformat()}", must=True)
            self.journal.away.setdefault(member, []).append((moment, until))

        self.machine.at(moment, go_away)

    def _reminder_probes(self, channel: SoakChannel) -> None:
        """At each reminder's slot, before it fires: is a review due by the end of the
        member's local day (as issue #35 asks), and is the member away."""
        for role, (at, zone) in channel.reminders.items():
            member = channel.member(role)
            for n in range(-1, self.plan.days + 2):
                day = self.plan.first_day + timedelta(days=n)
                slot = local(day, at, zone)
                if self.plan.within(slot):
                    self._at(slot, self._probe, channel, member, day, zone)

    async def _probe(self, channel: SoakChannel, member: str, day: date, zone: str) -> None:
        now = self.machine.clock.now()
        store = self.services[0].store
        member_id = await store.members.member_id(self._member(member))
        cards = await store.learning.member_cards(member_id)
        day_ends = local(day + timedelta(days=1), time(0), zone)
        due = any(card.due < day_ends for card in cards.values())
        away = self.journal.is_away(member, now, day)
        self.journal.reminders[(member, day)] = (now, due and not away)

    # one member's step

    def _at(self, moment: datetime, step: Callable[..., Awaitable[None]], *args: object) -> None:
        async def run() -> None:
            await step(*args)

        self.machine.at(moment, run)

    async def _answer(self, channel: SoakChannel, day: date, role: str) -> None:
        member = channel.member(role)
        if role == AWAY and self.journal.is_away(member, self.machine.clock.now(), day):
            return  # away: dan does not answer either
        service = self._next_service()
        round_ = await service.open_round(channel.ref)
        if round_ is None or round_.thread is None or channel.day_of(round_.scheduled_for) != day:
            return  # no question today to answer (the checks count it missing)
        event_id = self._event_id()
        await service.handle(
            Reply(
                event_id,
                channel.ref,
                ThreadRef(channel.ref, round_.thread),
                MessageRef(channel.ref, f"answer-{event_id}"),
                self._member(member),
                f"{member}'s answer of {day}",
            )
        )
        self.journal.answered.add((channel.number, day, role))
        member_id = await service.store.members.member_id(self._member(member))
        stored = await service.store.answers.round_answers(round_.id)
        if member_id not in {answer.member_id for answer in stored}:
            replica = self.services.index(service)
            self.journal.unsaved.append(f"{member}'s answer of {day}, through service {replica}")

    async def _reveal(self, channel: SoakChannel, day: date, role: str) -> None:
        service = self._next_service()
        round_ = await service.open_round(channel.ref)
        if round_ is None or round_.question_message is None:
            return
        if channel.day_of(round_.scheduled_for) != day or round_.revealed_at is not None:
            return
        await service.handle(
            Reaction(
                self._event_id(),
                channel.ref,
                MessageRef(channel.ref, round_.question_message),
                self._member(channel.member(role)),
                REVEAL_EMOJI,
            )
        )

    async def _grade(self, channel: SoakChannel, day: date, role: str, grade: str) -> None:
        if (channel.number, day, role) in self.journal.answered:
            await self._command(channel, channel.member(role), f"grade {grade}")

    async def _command(
        self, channel: SoakChannel, member: str, text: str, *, must: bool = False
    ) -> None:
        name, *args = text.split()
        event: Event = Command(
            self._event_id(), channel.ref, self._member(member), name, tuple(args)
        )
        response = await self._next_service().handle(event)
        if response is not None and response.card.kind is CardKind.ERROR:
            refused = f"{member} in {channel.ref.channel_id}: /quiz {text}: {response.card.body}"
            if must:
                raise AssertionError(refused)
            self.journal.refused.append(refused)

    def _member(self, name: str) -> MemberRef:
        return MemberRef("fake", "team", name, name.title())

    def _event_id(self) -> str:
        return f"soak-{next(self._events)}"

    def _next_service(self) -> QuizService:
        return self.services[next(self._turn) % len(self.services)]
