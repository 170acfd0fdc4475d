"""``/quiz topics``, ``/quiz schedule``, ``/quiz pause``, ``/quiz resume`` and ``/quiz
config``: a channel's quiz settings as members see them and admins change them."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.bank.rotation import none_eligible
from bot.blind.answers import BlindAnswers
from bot.channels._cards import schedule_card, settings_card, topics_card
from bot.channels.editor import ChannelSettingsEditor
from bot.commands.context import CommandContext
from bot.commands.grammar import (
    SETTING_NAME,
    Arguments,
    Param,
    ParamKind,
    Setting,
    Subcommand,
    Suggest,
)
from bot.commands.typed import QuizCommand
from bot.kernel.cards import info, plural
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.durations import show_minutes
from bot.kernel.emoji import canonical, emoji_count, same_emoji
from bot.kernel.errors import BadArgument, Refused, unknown_topics
from bot.kernel.local_dates import (
    RANGE_FORM,
    DayRange,
    local_today,
    looks_like_days,
    parse_day_range,
    refuse_past,
    refuse_too_far,
)
from bot.kernel.models import AnswerMode, ChannelSettings, FollowUpPolicy
from bot.kernel.quoting import quoted
from bot.kernel.render import Card, Response
from bot.scheduling.next_post import next_post
from bot.scheduling.question_schedule import parse_question_schedule
from bot.scheduling.schedule_spec import ScheduleError, is_timezone_name, parse_timezone
from bot.scheduling.skipped_days import SkippedDayStore
from questions.pack import Difficulty

MAX_GRACE_HOURS = 48
MAX_REVEAL_REACTORS = 50

ANSWER_MODE_NOTES = {
    AnswerMode.THREAD: "Answers: in the question's thread, for everyone to read.",
    AnswerMode.BLIND: (
        "Answers: blind. Members answer privately with `/quiz answer TEXT` or the Answer"
        " button of the questions posted from now on, and every answer is posted in the"
        " thread at the reveal."
    ),
}


@dataclass(frozen=True, slots=True)
class ShowTopics(QuizCommand):
    """List the topics and which are enabled in the channel."""


@dataclass(frozen=True, slots=True)
class SetTopics(QuizCommand):
    """Enable or disable topics in the channel."""

    enable: bool
    topics: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShowSchedule(QuizCommand):
    """Show the channel's schedule and the next post."""


@dataclass(frozen=True, slots=True)
class SetSchedule(QuizCommand):
    """Set the channel's schedule, in a timezone if given."""

    spec: str
    timezone: str | None


@dataclass(frozen=True, slots=True)
class SkipDays(QuizCommand):
    """``/quiz schedule skip|unskip DATE[..DATE]``: no scheduled question on those local
    dates (``skip``), or questions on them again."""

    days: DayRange
    skip: bool


@dataclass(frozen=True, slots=True)
class SetPaused(QuizCommand):
    """Pause or resume scheduled questions in the channel."""

    paused: bool


@dataclass(frozen=True, slots=True)
class SetRevealEmoji(QuizCommand):
    """Set the emoji that reveals a question's outline."""

    emoji: str


@dataclass(frozen=True, slots=True)
class SetFollowUps(QuizCommand):
    """Set when follow-up questions are posted."""

    policy: FollowUpPolicy


@dataclass(frozen=True, slots=True)
class SetGrace(QuizCommand):
    """Set how late a slot missed during downtime may still be posted."""

    hours: float


@dataclass(frozen=True, slots=True)
class SetRevealReactors(QuizCommand):
    """Set how many members must react before the outline is revealed."""

    count: int


@dataclass(frozen=True, slots=True)
class SetAnswerMode(QuizCommand):
    """Where members answer: in the thread, or blind until the reveal."""

    mode: AnswerMode


@dataclass(frozen=True, slots=True)
class ShowSettings(QuizCommand):
    """Show the channel's settings (or one of them), each with the command that changes it."""

    setting: str | None = None


@dataclass(frozen=True, slots=True)
class SetDifficulty(QuizCommand):
    """Ask only questions of one difficulty in the channel (None: any)."""

    difficulty: Difficulty | None


@dataclass(frozen=True, slots=True)
class SetRevealAfter(QuizCommand):
    """Reveal the outline this many minutes after the question if nobody did (None: off)."""

    minutes: int | None


@dataclass(frozen=True, slots=True)
class SetLastCall(QuizCommand):
    """Remind members who asked for notices this many minutes before the outline (None: off)."""

    minutes: int | None


@dataclass(frozen=True, slots=True)
class SetReviewsNamed(QuizCommand):
    """Whether an answer's author is told who reviewed it."""

    named: bool


@dataclass(frozen=True, slots=True)
class SetPing(QuizCommand):
    """Mention a Discord role or Slack user group with each question (None: nobody)."""

    group: str | None


ChannelSetting = (
    SetRevealEmoji
    | SetFollowUps
    | SetGrace
    | SetRevealReactors
    | SetAnswerMode
    | SetDifficulty
    | SetRevealAfter
    | SetLastCall
    | SetPing
    | SetReviewsNamed
)
OFF = "off"
MAX_REVEAL_AFTER_MINUTES = 7 * 24 * 60
MAX_LAST_CALL_MINUTES = 24 * 60
ANY_DIFFICULTY = "any"


def normalized_schedule(spec: str, timezone: str) -> tuple[str, str]:
    """The schedule and the timezone's canonical name ("europe/berlin" -> "Europe/Berlin")
    as they will be stored; raises ValueError with the right form."""
    try:
        return parse_question_schedule(spec).text, parse_timezone(timezone).key
    except ScheduleError as problem:
        raise ValueError(str(problem)) from problem


def one_emoji(typed: str) -> str:
    """The reveal emoji an admin typed, as the core keeps it (``:bulb:`` is 💡, a skin tone
    left out); refused when it is more than one emoji (none of them would reveal)."""
    if emoji_count(typed) > 1:
        raise BadArgument(f"{quoted(typed)} is more than one emoji: pick exactly one.")
    return canonical(typed)


def refuse_the_vote_emoji(emoji: str, config: QuizConfig) -> None:
    """The vote emoji (in any skin tone or name) cannot reveal: every vote would."""
    if same_emoji(emoji, config.vote_emoji):
        raise BadArgument(
            f"{emoji} is the vote emoji: members react with it to vote for answers, so it"
            " cannot also reveal the outline. Pick another emoji."
        )


class ChannelCommands:
    """The handlers of the channel settings' subcommands."""

    def __init__(
        self,
        *,
        settings: ChannelSettingsEditor,
        questions: WorkspaceCatalog,
        blind: BlindAnswers,
        config: QuizConfig,
        clock: Clock,
        skipped_days: SkippedDayStore,
        retime_open_round: Callable[[ChannelSettings], Awaitable[None]],
    ) -> None:
        self._settings = settings
        self._skipped_days = skipped_days
        self._questions = questions
        self._blind = blind
        self._config = config
        self._clock = clock
        self._retime_open_round = retime_open_round

    async def topics(self, ctx: CommandContext, command: ShowTopics | SetTopics) -> Response:
        known = self._questions.topics(workspace_of(ctx.event.channel))
        if isinstance(command, ShowTopics):
            enabled = ctx.channel.topics if ctx.channel else None
            return Response(topics_card(known, enabled))
        channel = ctx.quiz
        unknown = [t for t in command.topics if t not in known]
        if unknown:
            raise unknown_topics(unknown, known, "enable" if command.enable else "disable")
        current = set(known if channel.topics is None else channel.topics)
        chosen = set(command.topics)
        current = current | chosen if command.enable else current - chosen
        if not current:
            raise Refused("At least one topic must stay enabled.")
        enabled = None if current >= set(known) else tuple(sorted(current))
        shown = ", ".join(sorted(current))
        changed = dataclasses.replace(channel, topics=enabled)
        self._refuse_no_questions(changed)
        return await self._settings.change(changed, f"Enabled topics: {shown}.", was=channel)

    async def schedule(
        self, ctx: CommandContext, command: ShowSchedule | SetSchedule | SkipDays
    ) -> Response:
        channel = ctx.quiz
        if isinstance(command, ShowSchedule):
            return Response(await self._schedule_card(channel))
        if isinstance(command, SkipDays):
            return await self._skip(channel, command)
        try:
            normalized, zone = normalized_schedule(
                command.spec, command.timezone or channel.timezone
            )
        except ValueError as problem:
            raise Refused(str(problem)) from problem
        return await self._settings.change(
            dataclasses.replace(channel, schedule=normalized, timezone=zone),
            f"Questions will be posted {normalized} ({zone}).",
            was=channel,
        )

    async def _schedule_card(self, channel: ChannelSettings) -> Card:
        now = self._clock.now()
        ahead = await self._skipped_days.skipped_days(
            channel.id, local_today(now, channel.timezone)
        )
        return schedule_card(channel, next_post(channel, now, ahead), ahead)

    async def _skip(self, channel: ChannelSettings, command: SkipDays) -> Response:
        days = command.days
        today = local_today(self._clock.now(), channel.timezone)
        try:
            refuse_past(days.first, today)
            if command.skip:
                refuse_too_far(days.last, today)
        except ValueError as problem:
            raise BadArgument(str(problem)) from None
        if command.skip:
            changed = await self._skipped_days.skip_days(channel.id, days.days(), self._clock.now())
            note = (
                f"No question on {days.text()} ({channel.timezone}); "
                f"{plural(changed, 'day')} newly skipped. A skipped day breaks no streak."
            )
        else:
            changed = await self._skipped_days.unskip_days(channel.id, days.days())
            note = (
                f"Questions on {days.text()} again as scheduled; "
                f"{plural(changed, 'day')} had been skipped."
            )
        card = await self._schedule_card(channel)
        return Response(dataclasses.replace(card, title="Schedule", body=note))

    async def set_paused(self, ctx: CommandContext, command: SetPaused) -> Response:
        channel, paused = ctx.quiz, command.paused
        if channel.paused == paused:
            state = "paused" if paused else "running"
            return Response(info(f"The quiz is already {state}."))
        note = "Paused: no scheduled questions until `/quiz resume`." if paused else "Resumed."
        return await self._settings.change(
            dataclasses.replace(channel, paused=paused), note, was=channel
        )

    async def configure(
        self, ctx: CommandContext, command: ShowSettings | ChannelSetting
    ) -> Response:
        channel = ctx.quiz
        match command:
            case ShowSettings(setting=name):
                shown = [s for s in CHANNEL_SETTINGS if name is None or s.name == name]
                return Response(settings_card(channel, shown))
            case SetRevealEmoji(emoji=typed):
                emoji = await ctx.reaction_emoji(one_emoji(typed))
                refuse_the_vote_emoji(emoji, self._config)
                changed = dataclasses.replace(channel, reveal_emoji=emoji)
                note = f"React {emoji} on a question to reveal its outline."
            case SetFollowUps(policy=policy):
                changed = dataclasses.replace(channel, followup_policy=policy)
                note = f"Follow-up questions: {policy.value}."
            case SetGrace(hours=hours):
                changed = dataclasses.replace(channel, grace_hours=hours)
                note = f"A slot missed during downtime is still posted up to {hours:g} h late."
            case SetRevealReactors(count=count):
                changed = dataclasses.replace(channel, reveal_min_reactors=count)
                note = f"The outline is revealed once {count} member(s) react."
            case SetAnswerMode(mode=mode):
                note = ANSWER_MODE_NOTES[mode]
                if mode is AnswerMode.THREAD:
                    note += await self._blind.before_thread_mode(channel)
                changed = dataclasses.replace(channel, answer_mode=mode)
            case SetDifficulty(difficulty=difficulty):
                changed = dataclasses.replace(channel, difficulty=difficulty)
                self._refuse_no_questions(changed)
                note = (
                    "Questions of any difficulty."
                    if difficulty is None
                    else f"Only {difficulty} questions from now on."
                )
            case SetRevealAfter(minutes=minutes):
                changed = dataclasses.replace(channel, reveal_after_minutes=minutes)
                note = (
                    "The outline is posted when a member reveals it, or when the next question"
                    " closes the round."
                    if minutes is None
                    else f"The outline is posted {show_minutes(minutes)} after the question if"
                    " nobody revealed it sooner (the open question's too)."
                )
            case SetLastCall(minutes=minutes):
                changed = dataclasses.replace(channel, last_call_minutes=minutes)
                note = (
                    "No last call."
                    if minutes is None
                    else f"Members who turned notices on (`/quiz notify on`) and have not"
                    f" answered get a last call {show_minutes(minutes)} before the outline is"
                    " due (with `reveal-after`), or before the next scheduled question."
                )
            case SetPing(group=group):
                changed = dataclasses.replace(channel, ping=group)
                note = (
                    "Questions mention nobody."
                    if group is None
                    else "Each question mentions that group; nothing else the bot posts pings."
                )
            case SetReviewsNamed(named=named):
                changed = dataclasses.replace(channel, reviews_named=named)
                note = (
                    "Authors are told who reviewed their answers."
                    if named
                    else "Reviews are anonymous to the answer's author."
                )
        response = await self._settings.change(changed, note, was=channel)
        if isinstance(command, SetRevealAfter | SetLastCall):
            await self._retime_open_round(changed)
        return response

    def _refuse_no_questions(self, changed: ChannelSettings) -> None:
        """A change that would leave the channel no question to ask is refused, saying
        which topics and difficulty left none (instead of a day with no question)."""
        if changed.difficulty is None:
            return  # every enabled topic has a question
        workspace = workspace_of(changed.ref)
        if not self._questions.choosable(workspace, changed.topics, None, changed.difficulty):
            raise Refused(none_eligible(changed.difficulty, changed.topics, None))


TOPICS = Subcommand(
    "topics",
    "list topics; admins enable or disable them",
    "/quiz topics enable gpu-architecture rdma",
    params=(
        Param(
            "action",
            ParamKind.CHOICE,
            "Admins: enable or disable",
            choices=("enable", "disable"),
            admin=True,
            label="action",
        ),
        Param(
            "names",
            ParamKind.WORDS,
            "Topics, space-separated",
            metavar="TOPIC",
            label="topic",
            required=True,
            admin=True,
            needs="action",
            suggest=Suggest.TOPICS,
        ),
    ),
    build=lambda a: (
        SetTopics(
            enable=a["action"] == "enable",
            topics=tuple(dict.fromkeys(str(t).lower() for t in a["names"])),  # type: ignore[union-attr]
        )
        if "action" in a
        else ShowTopics()
    ),
    handler=ChannelCommands.topics,
    needs_channel=False,
    in_direct=True,
)


def looks_like_timezone(word: str) -> bool:
    """'Europe/Berlin', 'UTC' or 'Japan' (any name of the tz database), but not a cron field
    such as '*/2'."""
    if is_timezone_name(word):
        return True
    return word.upper() in ("UTC", "GMT") or ("/" in word and any(c.isalpha() for c in word))


SKIP_ACTIONS = ("skip", "unskip")


def schedule_command(arguments: Arguments) -> ShowSchedule | SetSchedule | SkipDays:
    """``/quiz schedule``, ``/quiz schedule SPEC [TIMEZONE]`` or ``/quiz schedule
    skip|unskip DATE[..DATE]``."""
    if "action" in arguments:
        if "spec" in arguments:
            raise ValueError(
                f"{arguments['action']} takes one date or range ({RANGE_FORM}), nothing else."
            )
        return SkipDays(parse_day_range(str(arguments["days"])), arguments["action"] == "skip")
    if "spec" in arguments:
        return SetSchedule(
            spec=" ".join(arguments["spec"]),  # type: ignore[arg-type]
            timezone=None if arguments.get("timezone") is None else str(arguments["timezone"]),
        )
    return ShowSchedule()


SCHEDULE = Subcommand(
    "schedule",
    "show the schedule and skipped days; admins set it (weekdays|daily|mon,wed,fri HH:MM, or"
    " 5-field cron), or skip|unskip DATE[..DATE] for holidays",
    "/quiz schedule skip {today+21}..{today+23}",
    params=(
        Param(
            "action",
            ParamKind.CHOICE,
            "Admins: skip or unskip local dates (holidays)",
            choices=SKIP_ACTIONS,
            label="action",
            admin=True,
            recognize=lambda word: word.lower() in SKIP_ACTIONS,
        ),
        Param(
            "days",
            ParamKind.WORD,
            f"Admins: {RANGE_FORM}",
            metavar="DATE[..DATE]",
            label="date or range",
            admin=True,
            needs="action",
            required=True,
            recognize=looks_like_days,
            missing=f"Give the dates to skip or unskip: {RANGE_FORM}, e.g. 2026-12-24.",
        ),
        Param(
            "spec",
            ParamKind.WORDS,
            'Admins: e.g. "weekdays 09:30" or "mon,wed,fri 10:00"',
            metavar="SPEC",
            label="schedule",
            admin=True,
        ),
        Param(
            "timezone",
            ParamKind.WORD,
            "Admins: IANA timezone, e.g. Europe/Berlin",
            metavar="TIMEZONE",
            label="timezone",
            admin=True,
            needs="spec",
            recognize=looks_like_timezone,
            suggest=Suggest.TIMEZONES,
        ),
    ),
    build=schedule_command,
    handler=ChannelCommands.schedule,
)

PAUSE = Subcommand(
    "pause",
    "stop scheduled questions",
    "/quiz pause",
    build=lambda _: SetPaused(paused=True),
    handler=ChannelCommands.set_paused,
    admin=True,
)

RESUME = Subcommand(
    "resume",
    "resume scheduled questions",
    "/quiz resume",
    build=lambda _: SetPaused(paused=False),
    handler=ChannelCommands.set_paused,
    admin=True,
)

PING_FORM = (
    "Give a Discord role (@role, or its id), a Slack user group (its id, such as S0123ABCD,"
    " from the group's profile), or off."
)
_DISCORD_ROLE = re.compile(r"<@&(\d{1,20})>")
_SLACK_GROUP = re.compile(r"<!subteam\^([A-Z0-9]{2,20})(?:\|[^>]*)?>")
_BARE_GROUP = re.compile(r"@?([A-Za-z0-9][A-Za-z0-9_.-]{0,39})")
_EVERYONE = frozenset({"here", "everyone", "channel"})


def ping_group(word: str) -> str | None:
    """The group a ``/quiz config ping`` value names: a Discord role mention or id, a
    Slack user group mention or id, a console group; None for off. Everyone-mentions are
    refused: a question must never ping the whole channel."""
    typed = word.strip()
    if typed.lower() == OFF:
        return None
    for pattern in (_DISCORD_ROLE, _SLACK_GROUP, _BARE_GROUP):
        if found := pattern.fullmatch(typed):
            group = found.group(1)
            if group.lower() in _EVERYONE:
                break
            return group
    if typed.lstrip("<!@").lower().startswith(tuple(_EVERYONE)):
        raise ValueError(
            f"{quoted(typed)} would ping everyone in the channel: name one role or group."
        )
    raise ValueError(f"{quoted(typed)} is not a role or group. {PING_FORM}")


def _shown_minutes(minutes: int | None) -> str:
    return OFF if minutes is None else show_minutes(minutes)


def _duration_setting(
    name: str,
    description: str,
    maximum: int,
    invalid: str,
    build: Callable[[int | None], QuizCommand],
    read: Callable[[ChannelSettings], int | None],
) -> Setting[Any]:
    """A setting of whole minutes from 1 to ``maximum``, or off (None)."""
    return Setting(
        name,
        Param(
            "value",
            ParamKind.DURATION,
            description,
            metavar="DURATION|off",
            minimum=1,
            maximum=maximum,
            alone=OFF,
            invalid=invalid,
        ),
        lambda minutes: build(None if minutes == 0 else minutes),
        read,
        _shown_minutes,
    )


CHANNEL_SETTINGS: tuple[Setting[Any], ...] = (
    Setting(
        "reveal-emoji",
        Param(
            "value",
            ParamKind.EMOJI,
            "an emoji",
            metavar="EMOJI",
            invalid="{value} is not an emoji.",
        ),
        lambda emoji: SetRevealEmoji(emoji=emoji),
        lambda channel: channel.reveal_emoji,
    ),
    Setting(
        "followups",
        Param(
            "value",
            ParamKind.CHOICE,
            "when follow-ups are posted",
            metavar="POLICY",  # the help's summary lists the policies
            choices=tuple(p.value for p in FollowUpPolicy),
            invalid="Unknown follow-up policy {value}.",
        ),
        lambda policy: SetFollowUps(policy=FollowUpPolicy(policy)),
        lambda channel: channel.followup_policy.value,
    ),
    Setting(
        "grace",
        Param(
            "value",
            ParamKind.NUMBER,
            "hours",
            metavar="HOURS",
            maximum=MAX_GRACE_HOURS,
            invalid=f"Grace must be a number of hours from 0 to {MAX_GRACE_HOURS}.",
        ),
        lambda hours: SetGrace(hours=hours),
        lambda channel: channel.grace_hours,
        lambda hours: f"{hours:g} h",
    ),
    Setting(
        "reveal-reactors",
        Param(
            "value",
            ParamKind.NUMBER,
            "members",
            metavar="N",
            minimum=1,
            maximum=MAX_REVEAL_REACTORS,
            integer=True,
            invalid=f"Reveal reactors must be from 1 to {MAX_REVEAL_REACTORS}.",
        ),
        lambda count: SetRevealReactors(count=count),
        lambda channel: channel.reveal_min_reactors,
    ),
    Setting(
        "answers",
        Param(
            "value",
            ParamKind.CHOICE,
            "where members answer: in the thread, or blind until the reveal",
            choices=tuple(m.value for m in AnswerMode),
            invalid="Unknown answer mode {value}: give thread or blind.",
        ),
        lambda mode: SetAnswerMode(mode=AnswerMode(mode)),
        lambda channel: channel.answer_mode.value,
    ),
    Setting(
        "difficulty",
        Param(
            "value",
            ParamKind.CHOICE,
            "only questions of this difficulty, or any",
            choices=(*(d.value for d in Difficulty), ANY_DIFFICULTY),
            invalid="Unknown difficulty {value}: give easy, medium, hard or any.",
        ),
        lambda level: SetDifficulty(None if level == ANY_DIFFICULTY else Difficulty(level)),
        lambda channel: ANY_DIFFICULTY if channel.difficulty is None else channel.difficulty.value,
    ),
    _duration_setting(
        "reveal-after",
        "post the outline this long after the question if nobody revealed it, or off",
        MAX_REVEAL_AFTER_MINUTES,
        "Give reveal-after as a duration from 1m to 168h (such as 4h or 90m), or off; not {value}.",
        SetRevealAfter,
        lambda channel: channel.reveal_after_minutes,
    ),
    _duration_setting(
        "last-call",
        "remind members with notices on who have not answered, this long before the"
        " outline, or off",
        MAX_LAST_CALL_MINUTES,
        "Give last-call as a duration from 1m to 24h (such as 1h), or off; not {value}.",
        SetLastCall,
        lambda channel: channel.last_call_minutes,
    ),
    Setting(
        "ping",
        Param(
            "value",
            ParamKind.WORD,
            "a role or user group each question mentions, or off",
            metavar="ROLE|off",
        ),
        lambda word: SetPing(ping_group(str(word))),
        lambda channel: channel.ping,
        lambda group: OFF if group is None else f"@{group}",
    ),
    Setting(
        "reviews",
        Param(
            "value",
            ParamKind.CHOICE,
            "whether an answer's author is told who reviewed it",
            choices=("anonymous", "named"),
            invalid="Give reviews as anonymous or named, not {value}.",
        ),
        lambda mode: SetReviewsNamed(mode == "named"),
        lambda channel: "named" if channel.reviews_named else "anonymous",
    ),
)

CONFIG = Subcommand(
    "config",
    "channel behaviour (POLICY: after_first_answer, immediately, with_reveal;"
    " answers: thread, or blind until the reveal; difficulty: only easy, medium or hard"
    " questions, or any)",
    "/quiz config answers blind",
    settings=CHANNEL_SETTINGS,
    build=lambda a: ShowSettings(setting=None if SETTING_NAME not in a else str(a[SETTING_NAME])),
    handler=ChannelCommands.configure,
)
