"""What each ``/quiz`` subcommand does, once parsed; the registry names the handler of each."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from bot.bank.catalog import workspace_of
from bot.blind.answers import BlindAnswers
from bot.commands.typed import (
    GradeRound,
    Help,
    PostNow,
    SetAnswerMode,
    SetFollowUps,
    SetGoal,
    SetGrace,
    SetPaused,
    SetRevealEmoji,
    SetRevealReactors,
    SetSchedule,
    SetTopics,
    ShowGoal,
    ShowLeaderboard,
    ShowSchedule,
    ShowStats,
    ShowTopics,
)
from bot.kernel.config import QuizConfig
from bot.kernel.emoji import canonical, emoji_count, same_emoji
from bot.kernel.errors import BadArgument, Refused, unknown_topic, unknown_topics
from bot.kernel.events import Command
from bot.kernel.log_context import about
from bot.kernel.models import AnswerMode, ChannelSettings
from bot.kernel.platform import Platform, ReactionEmoji
from bot.kernel.quoting import quoted
from bot.kernel.render import Response
from bot.kernel.scoring import period_start, streak
from bot.practice import cards as practice_cards
from bot.recaps.progress_chart import activity_field, me_chart, me_image
from bot.recaps.weekly import WeeklyRecaps
from bot.rounds import cards
from bot.rounds.engine import NoQuestions, QuizEngine
from bot.rounds.grading import grade_round

if TYPE_CHECKING:
    from bot.practice.sessions import PracticeSessions
    from bot.reminders.daily import DailyReminders

log = logging.getLogger(__name__)

NO_QUIZ_YET = (
    "There is no quiz in this channel yet. An admin can start one with `/quiz now` "
    "or `/quiz schedule weekdays 09:30`."
)

NOTHING_TO_GRADE_HERE = (
    "No practice question is waiting for your grade here: practice with `/quiz practice`"
    " and grade after its sample answer outline. A channel round is graded in its channel,"
    " after the reveal."
)

ANSWER_MODE_NOTES = {
    AnswerMode.THREAD: "Answers: in the question's thread, for everyone to read.",
    AnswerMode.BLIND: (
        "Answers: blind. Members answer privately with `/quiz answer TEXT` or the Answer"
        " button of the questions posted from now on, and every answer is posted in the"
        " thread at the reveal."
    ),
}


class ScheduleBook(Protocol):
    """The scheduler as commands see it."""

    def normalize(self, spec: str, timezone: str) -> tuple[str, str]:
        """The schedule and the timezone's canonical name ("europe/berlin" ->
        "Europe/Berlin") as they will be stored; raises ValueError with the right form."""
        ...

    def channel_changed(self, channel: ChannelSettings) -> None: ...

    def next_post(self, channel: ChannelSettings) -> datetime | None: ...

    @property
    def recaps(self) -> WeeklyRecaps:
        """Each channel's weekly recap, and the memory figures recaps and charts show."""
        ...

    @property
    def practice(self) -> PracticeSessions:
        """Members' private practice sessions."""
        ...

    @property
    def reminders(self) -> DailyReminders:
        """Members' daily review reminders."""
        ...


@dataclass(frozen=True, slots=True)
class CommandContext:
    """What a handler works with: the core, the invocation and the channel's quiz, if any."""

    engine: QuizEngine
    schedules: ScheduleBook
    event: Command
    channel: ChannelSettings | None
    usages: Sequence[tuple[str, str, bool]]  # each subcommand's form, summary, admin only
    platform: Platform | None = None

    async def reaction_emoji(self, emoji: str) -> str:
        """The emoji as the platform reacts with it; ``Refused`` when it cannot."""
        if isinstance(self.platform, ReactionEmoji):
            return await self.platform.reaction_emoji(emoji, self.event.channel)
        return emoji

    @property
    def recaps(self) -> WeeklyRecaps:
        return self.schedules.recaps

    @property
    def practice(self) -> PracticeSessions:
        return self.schedules.practice

    @property
    def reminders(self) -> DailyReminders:
        return self.schedules.reminders

    @property
    def quiz(self) -> ChannelSettings:
        """The channel's quiz; the runner only calls a handler that needs one when it exists."""
        if self.channel is None:
            raise LookupError(f"/quiz {self.event.name} ran without a quiz in the channel")
        return self.channel

    def topics(self) -> list[str]:
        """The topics of the questions this workspace sees (bundled and its own)."""
        return self.engine.questions.topics(workspace_of(self.event.channel))

    async def change(self, channel: ChannelSettings, note: str) -> Response:
        await self.engine.save_channel(channel)
        self.schedules.channel_changed(channel)
        log.info("channel settings changed: %s", note, extra=about(channel.ref))
        return Response(cards.info("Quiz settings changed", note), public=True)


async def show_help(ctx: CommandContext, command: Help) -> Response:
    return Response(cards.help_card(ctx.usages, command.note))


async def show_leaderboard(ctx: CommandContext, command: ShowLeaderboard) -> Response:
    channel = ctx.quiz
    since = period_start(command.period, ctx.engine.clock.now(), channel.timezone)
    rows = await ctx.engine.store.reports.leaderboard(channel.id, since, limit=10)
    return Response(cards.leaderboard_card(command.period, rows), public=command.public)


async def show_me(ctx: CommandContext, command: object) -> Response:
    store = ctx.engine.store
    member_id = await store.answers.member_id(ctx.event.member)
    workspace = workspace_of(ctx.event.channel)
    mastery = await ctx.engine.learning.mastery(member_id, ctx.engine.clock.now(), workspace)
    if ctx.channel is None:  # outside a quiz channel: private practice only
        zone = ctx.engine.config.default_timezone
        return Response(cards.mastery_card(ctx.event.member.label(), mastery, zone))
    channel = ctx.quiz
    history = await store.reports.member_history(channel.id, member_id)
    open_round = await store.rounds.open_round(channel.id)
    member_streak = streak(
        history.scheduled_round_ids,
        history.answered_round_ids,
        open_round.id if open_round else None,
    )
    card = cards.me_card(
        ctx.event.member.label(),
        history.points,
        history.answers,
        history.rank,
        member_streak,
        history.answers_per_topic,
        mastery,
        channel.timezone,
    )
    chart = await me_chart(
        store.recaps,
        ctx.recaps.memory,
        channel,
        member_id,
        ctx.event.member.label(),
        ctx.engine.clock.now(),
        mastery.target,
    )
    fields = (*card.fields, activity_field(chart))
    return Response(dataclasses.replace(card, fields=fields, image=await me_image(chart)))


async def show_stats(ctx: CommandContext, command: ShowStats) -> Response:
    stats = await ctx.engine.store.reports.channel_stats(ctx.quiz.id)
    weakest = await ctx.engine.learning.weakest_topics(
        ctx.quiz.id, ctx.engine.clock.now(), workspace=workspace_of(ctx.quiz.ref)
    )
    return Response(cards.stats_card(ctx.quiz, stats, weakest), public=command.public)


async def grade(ctx: CommandContext, command: GradeRound) -> Response:
    session = await ctx.practice.waiting_for_grade(ctx.event.channel)
    if session is not None and command.grade is not None and ctx.platform is not None:
        return await ctx.practice.grade(ctx.platform, session, command.grade)
    if ctx.event.direct:
        if session is not None:
            return Response(practice_cards.waiting_for_grade())
        raise Refused(NOTHING_TO_GRADE_HERE)
    if ctx.channel is None:
        return Response(cards.info("No quiz here yet", NO_QUIZ_YET))
    round_ = await ctx.engine.store.rounds.latest_round(ctx.quiz.id)
    if round_ is None:
        raise Refused("There is no question to grade yet.")
    if command.grade is None:
        member_id = await ctx.engine.store.answers.member_id(ctx.event.member)
        given = await ctx.engine.learning.store.round_grades(round_.id)
        return Response(cards.current_grade_card(round_.number, given.get(member_id)))
    return await grade_round(ctx.engine, ctx.quiz, round_, ctx.event.member, command.grade)


async def goal(ctx: CommandContext, command: ShowGoal | SetGoal) -> Response:
    learning, now = ctx.engine.learning, ctx.engine.clock.now()
    member_id = await ctx.engine.store.answers.member_id(ctx.event.member)
    if isinstance(command, SetGoal):
        if command.goal is not None and command.goal <= now.date():
            raise BadArgument(
                f"{quoted(command.goal.isoformat())} is not after today: give a later date, or off."
            )
        await learning.set_goal(member_id, command.goal)
    current = await learning.store.goal(member_id)
    return Response(cards.goal_card(current, now))


async def show_packs(ctx: CommandContext, command: object) -> Response:
    own = ctx.engine.questions.own_topics(workspace_of(ctx.event.channel))
    return Response(cards.packs_card(ctx.engine.catalog.packs, own))


async def topics(ctx: CommandContext, command: ShowTopics | SetTopics) -> Response:
    if isinstance(command, ShowTopics):
        enabled = ctx.channel.topics if ctx.channel else None
        return Response(cards.topics_card(ctx.topics(), enabled))
    channel = ctx.quiz
    known = ctx.topics()
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
    return await ctx.change(changed, f"Enabled topics: {shown}.")


async def schedule(ctx: CommandContext, command: ShowSchedule | SetSchedule) -> Response:
    channel = ctx.quiz
    if isinstance(command, ShowSchedule):
        return Response(cards.schedule_card(channel, ctx.schedules.next_post(channel)))
    try:
        normalized, zone = ctx.schedules.normalize(
            command.spec, command.timezone or channel.timezone
        )
    except ValueError as problem:
        raise Refused(str(problem)) from problem
    return await ctx.change(
        dataclasses.replace(channel, schedule=normalized, timezone=zone),
        f"Questions will be posted {normalized} ({zone}).",
    )


async def post_now(ctx: CommandContext, command: PostNow) -> Response:
    engine, topic = ctx.engine, command.topic
    if topic is not None and topic not in ctx.topics():
        await engine.read_bank(workspace_of(ctx.event.channel))  # approved a moment ago?
        if topic not in ctx.topics():
            raise unknown_topic(topic, ctx.topics())
    try:
        round_ = await engine.start_round(
            ctx.quiz, scheduled_for=engine.clock.now(), scheduled=False, topic=topic
        )
    except NoQuestions:
        raise Refused("No topic is enabled. Enable one with `/quiz topics enable TOPIC`.") from None
    if round_ is None:
        return Response(cards.info("A question was just posted."))
    return Response(cards.info(f"Posting question #{round_.number}."))


async def reveal_now(ctx: CommandContext, command: object) -> Response:
    round_ = await ctx.engine.store.rounds.latest_round(ctx.quiz.id)
    if round_ is None:
        raise Refused("There is no round to reveal yet.")
    if ctx.engine.was_skipped(round_):
        raise Refused(
            f"There is no open round to reveal: question #{round_.number} was closed with"
            " `/quiz skip`, and its outline stays unposted. Post a new one with `/quiz now`."
        )
    if not await ctx.engine.reveal(ctx.quiz, round_):
        return Response(cards.info(f"Round #{round_.number} is already revealed."))
    return Response(cards.info(f"Revealing the outline of round #{round_.number}."))


async def skip_round(ctx: CommandContext, command: object) -> Response:
    skipped = await ctx.engine.skip(ctx.quiz)
    if skipped is None:
        return Response(cards.info("No round is open."))
    return Response(cards.info(f"Round #{skipped.number} is closed."), public=True)


async def set_paused(ctx: CommandContext, command: SetPaused) -> Response:
    channel, paused = ctx.quiz, command.paused
    if channel.paused == paused:
        state = "paused" if paused else "running"
        return Response(cards.info(f"The quiz is already {state}."))
    note = "Paused: no scheduled questions until `/quiz resume`." if paused else "Resumed."
    return await ctx.change(dataclasses.replace(channel, paused=paused), note)


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


ChannelSetting = SetRevealEmoji | SetFollowUps | SetGrace | SetRevealReactors | SetAnswerMode


async def configure(ctx: CommandContext, command: ChannelSetting) -> Response:
    channel = ctx.quiz
    match command:
        case SetRevealEmoji(emoji=typed):
            emoji = await ctx.reaction_emoji(one_emoji(typed))
            refuse_the_vote_emoji(emoji, ctx.engine.config)
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
                note += await BlindAnswers(ctx.engine).before_thread_mode(channel)
            changed = dataclasses.replace(channel, answer_mode=mode)
    return await ctx.change(changed, note)
