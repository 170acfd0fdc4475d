"""``/quiz pair``: opt in to weekly mock interviews in pairs, skip a week, rate the
interview given; admins set the pairing slot or pair now."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.channels.editor import ChannelSettingsEditor
from bot.feature import Listed
from bot.kernel.cards import info, info_fields, plural
from bot.kernel.clock import Clock
from bot.kernel.errors import Refused, unknown_topic
from bot.kernel.members import MemberIds
from bot.kernel.models import ChannelSettings
from bot.kernel.pair_facts import PairRating
from bot.kernel.platform import DirectMessages
from bot.kernel.quoting import quoted
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Field, Response
from bot.learning.service import LearningService
from bot.learning.store import RatedAlready
from bot.pairing.cards import interviews_in
from bot.pairing.schedule import DEFAULT_PAIRING, PairSetting, iso_week, parse_pair_time
from bot.pairing.store import PairMember, PairStore
from bot.pairing.weekly import WeeklyPairings
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, PartProblem, Subcommand, Suggest
from bot.quiz_command.typed import QuizCommand
from bot.reminders.store import ReminderStore
from bot.reviews.rubric import SCORE_GRADES, score_label
from bot.scheduling.slot_arithmetic import next_slot
from questions.pack import Question

ACTIONS = ("on", "off", "skip", "rate", "schedule", "now")
ADMIN_ACTIONS = ("schedule", "now")
EXAMPLE_ON = "`/quiz pair on gpu-architecture`"
QuestionLookup = Callable[[ChannelRef, int], Question | None]


@dataclass(frozen=True, slots=True)
class ShowPair(QuizCommand):
    """``/quiz pair``: the member's status, next pairing and past partners."""


@dataclass(frozen=True, slots=True)
class PairOn(QuizCommand):
    """``/quiz pair on [TOPIC...]``: opt in (the topics to be interviewed on)."""

    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PairOff(QuizCommand):
    """``/quiz pair off``: opt out."""


@dataclass(frozen=True, slots=True)
class PairSkip(QuizCommand):
    """``/quiz pair skip``: skip the coming pairing."""


@dataclass(frozen=True, slots=True)
class PairRate(QuizCommand):
    """``/quiz pair rate SCORE [N...]``: rate the mock interview one gave."""

    score: int
    covered: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RateHowTo(QuizCommand):
    """``/quiz pair rate``: how to rate, and the key points of the brief to tick."""


@dataclass(frozen=True, slots=True)
class PairSchedule(QuizCommand):
    """``/quiz pair schedule DAY HH:MM|off``: the channel's pairing slot."""

    schedule: str | None  # "mon 10:00"; None: off


@dataclass(frozen=True, slots=True)
class PairNow(QuizCommand):
    """``/quiz pair now``: pair the channel's members for this week now."""


PairCommand = ShowPair | PairOn | PairOff | PairSkip | PairRate | RateHowTo | PairSchedule | PairNow


class PairCommands:
    """The handler of ``/quiz pair``."""

    def __init__(
        self,
        *,
        pairings: WeeklyPairings,
        pairs: PairStore,
        members: MemberIds,
        reminders: ReminderStore,
        learning: LearningService,
        settings: ChannelSettingsEditor,
        question_for: QuestionLookup,
        clock: Clock,
    ) -> None:
        self._pairings = pairings
        self._pairs = pairs
        self._members = members
        self._reminders = reminders
        self._learning = learning
        self._settings = settings
        self._question_for = question_for
        self._clock = clock

    async def pair(self, ctx: CommandContext, command: PairCommand) -> Response:
        channel = ctx.quiz
        member_id = await self._members.member_id(ctx.event.member)
        match command:
            case PairSchedule():
                return await self._schedule(channel, command)
            case PairNow():
                await self._check_enough_to_pair(channel)
                if not await self._pairings.record(channel, self._clock.now()):
                    raise Refused(
                        "This week's pairing is done already: the next comes with the slot."
                    )
                return Response(
                    info(
                        "Pairing now",
                        "The members opted in are paired now; each pair gets an intro and"
                        " each member a brief.",
                    )
                )
            case PairOn():
                return await self._on(ctx, channel, member_id, command)
            case PairOff():
                if await self._pairs.opt_out(channel.id, member_id):
                    return Response(
                        info("Pairing off", f"You are not paired any more. Back in: {EXAMPLE_ON}.")
                    )
                return Response(info("You were not opted in."))
            case PairSkip():
                week = self._coming_week(channel)
                if not await self._pairs.skip_week(channel.id, member_id, week):
                    raise Refused(f"You are not opted in: {EXAMPLE_ON}.")
                return Response(
                    info(
                        "Skipping",
                        f"You skip the pairing of {week}; the week after you are paired again.",
                    )
                )
            case PairRate():
                return await self._rate(channel, member_id, command)
            case RateHowTo():
                return await self._rate_how_to(channel, member_id)
        return await self._status(channel, member_id)

    async def _check_enough_to_pair(self, channel: ChannelSettings) -> None:
        """Refuse ``pair now`` before it records the week: with fewer than two members to
        pair, the pairing would use up the week and pair nobody."""
        now = self._clock.now()
        zone = ZoneInfo(channel.timezone)
        week, today = iso_week(now, zone), now.astimezone(zone).date()
        ready = [
            member
            for member in await self._pairs.pair_members(channel.id)
            if member.skip_week != week
            and not await self._pairings.is_away(member.member_id, today)
        ]
        if len(ready) < 2:
            raise Refused(
                f"Only {plural(len(ready), 'member')} can be paired this week (opted in, not"
                " skipping, not away): pairing needs two. This week's pairing is still to"
                f" come; members opt in with {EXAMPLE_ON}."
            )

    async def _on(
        self, ctx: CommandContext, channel: ChannelSettings, member_id: int, command: PairOn
    ) -> Response:
        known = self._pairings.topics()
        unknown = [topic for topic in command.topics if topic not in known]
        if unknown:
            raise unknown_topic(unknown[0], known)
        reminder = await self._reminders.reminder(member_id)
        timezone = reminder.timezone if reminder else channel.timezone
        platform = ctx.platform
        direct = None
        if isinstance(platform, DirectMessages):
            direct = (await platform.open_direct(ctx.event.member)).channel_id
        member = ctx.event.member
        name = member.display_name or member.member_id
        await self._pairs.opt_in(
            PairMember(
                channel.id,
                member_id,
                member.member_id,
                name,
                direct,
                command.topics,
                timezone,
                None,
            ),
            self._clock.now(),
        )
        topics = ", ".join(command.topics) or "the channel's topics"
        return Response(
            info(
                "Pairing on",
                f"Every week you are paired with a teammate for a mock interview on {topics}."
                f" Next pairing: {self._next_text(channel)}. `/quiz pair skip` skips a week,"
                " `/quiz pair off` stops it.",
            )
        )

    async def _briefed(self, channel: ChannelSettings, member_id: int) -> tuple[int, int, int]:
        """(group id, candidate id, question id) of the member's latest brief."""
        groups = await self._pairs.member_groups(channel.id, member_id)
        if not groups:
            raise Refused("You have had no mock interview in this channel yet.")
        group = groups[0]
        at = group.members.index(member_id)
        candidate = group.members[(at + 1) % len(group.members)]
        question_id = await self._pairs.brief_question(group.id, candidate)
        if question_id is None:
            raise Refused("Your brief for this week has no question to rate.")
        return group.id, candidate, question_id

    async def _rate_how_to(self, channel: ChannelSettings, member_id: int) -> Response:
        _, _, question_id = await self._briefed(channel, member_id)
        question = self._question_for(channel.ref, question_id)
        points = question.key_points if question else ()
        checklist = "\n".join(f"{n}. {p}" for n, p in enumerate(points, 1)) or "(none)"
        scores = ", ".join(score_label(s) for s in SCORE_GRADES)
        return Response(
            info_fields(
                "Rate the interview you gave",
                (
                    Field("How", "`/quiz pair rate SCORE [N...]`, e.g. `/quiz pair rate 3 1 2`"),
                    Field("Score", scores),
                    Field("Key points they covered (N)", checklist),
                ),
            )
        )

    async def _rate(self, channel: ChannelSettings, member_id: int, command: PairRate) -> Response:
        group_id, candidate, question_id = await self._briefed(channel, member_id)
        question = self._question_for(channel.ref, question_id)
        total = len(question.key_points) if question else 0
        wrong = [n for n in command.covered if not 1 <= n <= total]
        if wrong:
            raise Refused(f"The brief's key points are numbered 1 to {total}, not {wrong[0]}.")
        rating = PairRating(
            group_id, member_id, candidate, question_id, command.score, command.covered or None
        )
        grade = SCORE_GRADES[command.score]
        now = self._clock.now()
        try:  # the rating and the grade it gives the candidate: one transaction
            await self._learning.grade(candidate, question_id, grade, now, rating=rating)
        except RatedAlready:
            raise Refused("You rated this interview already.") from None
        covered = (
            f" {plural(len(command.covered), 'key point')} covered." if command.covered else ""
        )
        return Response(
            info(
                "Interview rated",
                f"Score {score_label(command.score)}.{covered} It counts as your partner's review"
                f" of the question ({grade.word}).",
            )
        )

    async def _schedule(self, channel: ChannelSettings, command: PairSchedule) -> Response:
        setting = PairSetting(enabled=command.schedule is not None, schedule=command.schedule)
        await self._pairings.change(channel.id, setting)
        if command.schedule is None:
            note = (
                "No weekly pairing any more. Turn it on again with"
                f" `/quiz pair schedule {DEFAULT_PAIRING}`."
            )
        else:
            note = f"Members opted in are paired every {command.schedule} ({channel.timezone})."
        return await self._settings.change(channel, note)

    async def _status(self, channel: ChannelSettings, member_id: int) -> Response:
        me = await self._pairs.pair_member(channel.id, member_id)
        names = {
            m.member_id: m.name or m.member for m in await self._pairs.pair_members(channel.id)
        }
        groups = await self._pairs.member_groups(channel.id, member_id)
        partners = []
        for group in groups:
            others = [names.get(m, "a former member") for m in group.members if m != member_id]
            partners.append(f"{group.week}: {', '.join(others)}")
        if me is None:
            state = f"Not opted in. Join with {EXAMPLE_ON}."
        else:
            topics = ", ".join(me.topics) or "the channel's topics"
            skip = f"; skipping {me.skip_week}" if me.skip_week else ""
            state = f"Opted in, on {topics}{skip}."
        fields = [
            Field("You", state),
            Field("Pairing", self._pairings.setting(channel.id).describe(), inline=True),
            Field("Next pairing", self._next_text(channel), inline=True),
        ]
        if groups and groups[0].week == iso_week(self._clock.now(), ZoneInfo(channel.timezone)):
            current = [names.get(m, "?") for m in groups[0].members]
            fields.append(Field("This week", interviews_in(current)))
        fields.append(Field("Past partners", "\n".join(partners[:10]) or "none yet"))
        return Response(info_fields("Mock interviews", tuple(fields)))

    def _next(self, channel: ChannelSettings) -> datetime | None:
        plan = self._pairings.plan(channel)
        return next_slot(plan.spec, plan.tz, self._clock.now()) if plan else None

    def _next_text(self, channel: ChannelSettings) -> str:
        upcoming = self._next(channel)
        if upcoming is None:
            return "—"
        return upcoming.astimezone(ZoneInfo(channel.timezone)).strftime("%a %d %b %H:%M %Z")

    def _coming_week(self, channel: ChannelSettings) -> str:
        """The week of the next pairing slot (this week's if it is still to come)."""
        return iso_week(self._next(channel) or self._clock.now(), ZoneInfo(channel.timezone))


def pair_command(arguments: Arguments) -> PairCommand:
    action = arguments.get("action")
    values = tuple(str(v) for v in arguments.get("values", ()))  # type: ignore[union-attr]
    if action is None:
        return ShowPair()
    if action != "on" and action != "rate" and action != "schedule" and values:
        alone = f"/quiz pair {action}"
        raise PartProblem(f"{action} takes nothing after it.", form=alone, example=alone)
    match action:
        case "on":
            return PairOn(tuple(dict.fromkeys(v.lower() for v in values)))
        case "off":
            return PairOff()
        case "skip":
            return PairSkip()
        case "now":
            return PairNow()
        case "rate":
            return _rate_command(values) if values else RateHowTo()
    return _schedule_command(values) if values else ShowPair()


def _rate_command(values: tuple[str, ...]) -> PairRate:
    if not values or values[0] not in ("1", "2", "3", "4"):
        given = quoted(values[0]) if values else "nothing"
        raise _rate_problem(f"Give the score first, 1 to 4, not {given}.")
    covered: list[int] = []
    for word in values[1:]:
        number = word.strip(",#")
        if not number.isdecimal() or len(number) > 2:
            raise _rate_problem(f"{quoted(word)} is not a key point's number.")
        covered.append(int(number))
    return PairRate(int(values[0]), tuple(sorted(set(covered))))


def _schedule_command(values: tuple[str, ...]) -> PairSchedule:
    if values and values[0].lower() == "off" and len(values) == 1:
        return PairSchedule(None)
    schedule = {
        "form": "/quiz pair schedule DAY HH:MM|off",
        "example": "/quiz pair schedule mon 10:00",
    }
    if len(values) != 2:
        raise PartProblem("Give a day and a time, e.g. mon 10:00, or off.", **schedule)
    try:
        return PairSchedule(parse_pair_time(values[0], values[1]))
    except ValueError as bad:
        raise PartProblem(str(bad), **schedule) from None


def _rate_problem(message: str) -> PartProblem:
    return PartProblem(
        message, form="/quiz pair rate SCORE [N...]", example="/quiz pair rate 3 1 2"
    )


PAIR = Subcommand(
    "pair",
    "weekly mock interviews in pairs: opt in or out, skip a week, rate the one you gave;"
    " admins set the day or pair now",
    "/quiz pair on gpu-architecture",
    params=(
        Param(
            "action",
            ParamKind.CHOICE,
            "on, off, skip, rate; admins: schedule, now",
            choices=ACTIONS,
            label="action",
            admin_choices=ADMIN_ACTIONS,
        ),
        Param(
            "values",
            ParamKind.WORDS,
            "on: topics; rate: score 1-4 and key points covered; schedule: DAY HH:MM or off",
            metavar="VALUE",
            label="value",
            needs="action",
            suggest=Suggest.TOPICS,
        ),
    ),
    build=pair_command,
    handler=PairCommands.pair,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (Listed(150, PAIR),)
