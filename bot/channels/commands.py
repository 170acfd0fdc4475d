"""The handlers of a channel's quiz settings as members see them and admins change them,
and ``/quiz topics``, ``/quiz pause`` and ``/quiz resume``."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.bank.rotation import none_eligible
from bot.blind.answers import BlindAnswers
from bot.channels._cards import schedule_card, settings_card, topics_card
from bot.channels.config_settings import CHANNEL_SETTINGS
from bot.channels.editor import ChannelSettingsEditor
from bot.channels.setting_requests import (
    ChannelSetting,
    SetAnswerMode,
    SetCoach,
    SetDifficulty,
    SetFollowUps,
    SetGrace,
    SetLastCall,
    SetPaused,
    SetPing,
    SetRevealAfter,
    SetRevealEmoji,
    SetRevealReactors,
    SetReviewsNamed,
    SetSchedule,
    SetSeasonRole,
    SetSeasons,
    SetTopics,
    ShowSchedule,
    ShowSettings,
    ShowTopics,
    SkipDays,
)
from bot.channels.setting_rules import (
    ANSWER_MODE_NOTES,
    normalized_schedule,
    one_emoji,
    ping_group,
    refuse_the_vote_emoji,
)
from bot.channels.topics import SetNewTopics, new_topics_note, topics_changed_note
from bot.feature import Listed
from bot.kernel.cards import info, plural
from bot.kernel.clock import Clock
from bot.kernel.coach_consent import CoachConsent
from bot.kernel.config import QuizConfig
from bot.kernel.durations import show_minutes
from bot.kernel.errors import BadArgument, Refused, unknown_topics
from bot.kernel.local_dates import (
    local_today,
    refuse_past,
    refuse_too_far,
)
from bot.kernel.models import AnswerMode, ChannelSettings, SeasonLength
from bot.kernel.render import Card, Response
from bot.kernel.topic_choice import TopicChoice
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import (
    SETTING_NAME,
    Param,
    ParamKind,
    Subcommand,
    Suggest,
)
from bot.scheduling.next_post import next_post
from bot.scheduling.skipped_days import SkippedDayStore


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
        coach: CoachConsent,
    ) -> None:
        self._settings = settings
        self._coach = coach
        self._skipped_days = skipped_days
        self._questions = questions
        self._blind = blind
        self._config = config
        self._clock = clock
        self._retime_open_round = retime_open_round

    async def topics(self, ctx: CommandContext, command: ShowTopics | SetTopics) -> Response:
        known = self._questions.topics(workspace_of(ctx.event.channel))
        if isinstance(command, ShowTopics):
            choice = ctx.channel.topics if ctx.channel else TopicChoice()
            return Response(topics_card(known, choice, new_topics_note(choice)))
        channel = ctx.quiz
        unknown = [t for t in command.topics if t not in known]
        if unknown:
            raise unknown_topics(unknown, known, "enable" if command.enable else "disable")
        enabled = channel.topics.enabled(known)
        current = set(known if enabled is None else enabled)
        chosen = set(command.topics)
        current = current | chosen if command.enable else current - chosen
        if not current:
            raise Refused("At least one topic must stay enabled.")
        choice = channel.topics.with_enabled(current, known)
        changed = dataclasses.replace(channel, topics=choice)
        self._refuse_no_questions(changed)
        return await self._settings.change(changed, topics_changed_note(choice, known), was=channel)

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
            case SetPing(typed=typed):
                group = ping_group(typed, ctx.platform)
                changed = dataclasses.replace(channel, ping=group)
                note = (
                    "Questions mention nobody."
                    if group is None
                    else "Each question mentions that group; nothing else the bot posts pings."
                )
            case SetNewTopics(enabled=enabled):
                known = self._questions.topics(workspace_of(channel.ref))
                changed = dataclasses.replace(
                    channel, topics=channel.topics.with_new_topics(enabled, known)
                )
                note = new_topics_note(changed.topics)
            case SetSeasons(length=length):
                changed = dataclasses.replace(channel, seasons=length)
                note = (
                    "No seasons: no champions are posted."
                    if length is SeasonLength.OFF
                    else f"Seasons are {length.value}: on the first day of each, at midnight"
                    f" ({channel.timezone}), the past season's champions are posted here."
                    " `/quiz season` shows the standings."
                )
            case SetSeasonRole(typed=typed):
                group = ping_group(typed, ctx.platform)
                changed = dataclasses.replace(channel, season_role=group)
                note = (
                    "The season's post mentions nobody."
                    if group is None
                    else "The season's post mentions that group and tells the champions to"
                    " claim it; the bot changes nobody's roles."
                )
            case SetReviewsNamed(named=named):
                changed = dataclasses.replace(channel, reviews_named=named)
                note = (
                    "Authors are told who reviewed their answers."
                    if named
                    else "Reviews are anonymous to the answer's author."
                )
            case SetCoach(on=on):
                changed, note = self._coach_switched(channel, on)
        response = await self._settings.change(changed, note, was=channel)
        if isinstance(command, SetCoach) and command.on and not channel.coach:
            await self._coach.announce(changed)
        if isinstance(command, SetRevealAfter | SetLastCall):
            await self._retime_open_round(changed)
        return response

    def _coach_switched(self, channel: ChannelSettings, on: bool) -> tuple[ChannelSettings, str]:
        """The channel with the coach on or off, and what the admin is told; turning it on
        without an endpoint is refused, saying what the operator must set."""
        if not on:
            return dataclasses.replace(channel, coach=False), (
                "The coach is off: no answer of this channel is sent to it."
            )
        reader = self._coach.reader()
        if reader is None:
            raise Refused(self._coach.missing_settings())
        return dataclasses.replace(channel, coach=True), (
            f"The coach is on: {reader} reads the answers of members who have not opted out"
            " (`/quiz coach off`), without their names. The channel is told once."
        )

    def _refuse_no_questions(self, changed: ChannelSettings) -> None:
        """A change that would leave the channel no question to ask is refused, saying
        which topics and difficulty left none (instead of a day with no question)."""
        if changed.difficulty is None:
            return  # every enabled topic has a question
        workspace = workspace_of(changed.ref)
        if not self._questions.choosable(workspace, changed.topics, None, changed.difficulty):
            enabled = self._questions.enabled_topics(workspace, changed.topics)
            raise Refused(none_eligible(changed.difficulty, enabled, None))


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


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(170, TOPICS),
    Listed(260, PAUSE),
    Listed(270, RESUME),
    Listed(300, CONFIG),
)
