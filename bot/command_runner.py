"""Carries out parsed ``/quiz`` commands: permission check, the change, the answer card."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime
from typing import Protocol

from bot import cards
from bot.commands import (
    AdminCommand,
    CommandError,
    Help,
    PostNow,
    QuizCommand,
    RevealNow,
    SetFollowUps,
    SetGrace,
    SetPaused,
    SetRevealEmoji,
    SetRevealReactors,
    SetSchedule,
    SetTopics,
    ShowLeaderboard,
    ShowMe,
    ShowPacks,
    ShowSchedule,
    ShowStats,
    ShowTopics,
    SkipRound,
    needs_admin,
    parse_command,
)
from bot.engine import NoQuestions, QuizEngine
from bot.events import Command
from bot.log_context import about
from bot.models import ChannelSettings
from bot.ports import Platform
from bot.quoting import quoted
from bot.render import Response
from bot.scoring import period_start, streak

log = logging.getLogger(__name__)

ADMIN_COMMANDS = (
    PostNow,
    RevealNow,
    SkipRound,
    SetTopics,
    SetSchedule,
    SetPaused,
    SetRevealEmoji,
    SetFollowUps,
    SetGrace,
    SetRevealReactors,
)
NO_QUIZ_YET = (
    "There is no quiz in this channel yet. An admin can start one with `/quiz now` "
    "or `/quiz schedule weekdays 09:30`."
)


class ScheduleBook(Protocol):
    """The scheduler as commands see it."""

    def normalize(self, spec: str, timezone: str) -> tuple[str, str]:
        """The schedule and the timezone's canonical name ("europe/berlin" ->
        "Europe/Berlin") as they will be stored; raises ValueError with the right form."""
        ...

    def channel_changed(self, channel: ChannelSettings) -> None: ...

    def next_post(self, channel: ChannelSettings) -> datetime | None: ...


class CommandRunner:
    def __init__(self, engine: QuizEngine, schedules: ScheduleBook) -> None:
        self._engine = engine
        self._store = engine.store
        self._schedules = schedules

    async def run(self, event: Command, platform: Platform) -> Response:
        if needs_admin(event.name, event.args) and not await platform.is_admin(
            event.member, event.channel
        ):
            return Response(
                cards.error(f"`/quiz {event.name}` needs a quiz admin of this channel.")
            )
        try:
            command = parse_command(event.name, event.args)
        except CommandError as problem:
            return Response(cards.error(str(problem)))
        if isinstance(command, Help):
            return Response(cards.help_card(command.note))
        channel = await self._engine.channel(event.channel)
        if isinstance(command, ADMIN_COMMANDS):
            if channel is None:
                channel = await self._engine.create_channel(event.channel)
                self._schedules.channel_changed(channel)
            elif channel.disabled_reason:
                # A command arriving from the channel shows the bot can reach it again.
                log.info("channel enabled again by an admin", extra=about(channel.ref))
                channel = dataclasses.replace(channel, disabled_reason=None)
                await self._engine.save_channel(channel)
                self._schedules.channel_changed(channel)
            return await self._run_admin(command, channel)
        if isinstance(command, ShowPacks):
            return Response(cards.packs_card(self._engine.catalog.packs))
        if isinstance(command, ShowTopics):
            enabled = channel.topics if channel else None
            return Response(cards.topics_card(self._engine.catalog.topics(), enabled))
        if channel is None:
            return Response(cards.info("No quiz here yet", NO_QUIZ_YET))
        return await self._run_member(command, channel, event)

    async def _run_member(
        self, command: QuizCommand, channel: ChannelSettings, event: Command
    ) -> Response:
        now = self._engine.clock.now()
        match command:
            case ShowLeaderboard(period=period, public=public):
                since = period_start(period, now, channel.timezone)
                rows = await self._store.leaderboard(channel.id, since, limit=10)
                return Response(cards.leaderboard_card(period, rows), public=public)
            case ShowMe():
                member_id = await self._store.member_id(event.member)
                history = await self._store.member_history(channel.id, member_id)
                open_round = await self._store.open_round(channel.id)
                member_streak = streak(
                    history.scheduled_round_ids,
                    history.answered_round_ids,
                    open_round.id if open_round else None,
                )
                card = cards.me_card(
                    event.member.label(),
                    history.points,
                    history.answers,
                    history.rank,
                    member_streak,
                    history.answers_per_topic,
                )
                return Response(card)
            case ShowStats(public=public):
                stats = await self._store.channel_stats(channel.id)
                return Response(cards.stats_card(channel, stats), public=public)
            case ShowSchedule():
                next_post = self._schedules.next_post(channel)
                return Response(cards.schedule_card(channel, next_post))
        raise AssertionError(f"unhandled command {command!r}")

    async def _run_admin(self, command: AdminCommand, channel: ChannelSettings) -> Response:
        engine = self._engine
        match command:
            case PostNow(topic=topic):
                return await self._post_now(channel, topic)
            case RevealNow():
                round_ = await engine.store.latest_round(channel.id)
                if round_ is None:
                    return Response(cards.error("There is no round to reveal yet."))
                if not await engine.reveal(channel, round_):
                    return Response(cards.info(f"Round #{round_.number} is already revealed."))
                return Response(cards.info(f"Revealing the outline of round #{round_.number}."))
            case SkipRound():
                skipped = await engine.skip(channel)
                if skipped is None:
                    return Response(cards.info("No round is open."))
                return Response(cards.info(f"Round #{skipped.number} is closed."), public=True)
            case SetTopics(enable=enable, topics=topics):
                return await self._set_topics(channel, enable, topics)
            case SetSchedule(spec=spec, timezone=timezone):
                try:
                    normalized, zone = self._schedules.normalize(spec, timezone or channel.timezone)
                except ValueError as problem:
                    return Response(cards.error(str(problem)))
                return await self._change(
                    dataclasses.replace(channel, schedule=normalized, timezone=zone),
                    f"Questions will be posted {normalized} ({zone}).",
                )
            case SetPaused(paused=paused):
                if channel.paused == paused:
                    state = "paused" if paused else "running"
                    return Response(cards.info(f"The quiz is already {state}."))
                note = (
                    "Paused: no scheduled questions until `/quiz resume`." if paused else "Resumed."
                )
                return await self._change(dataclasses.replace(channel, paused=paused), note)
            case SetRevealEmoji(emoji=emoji):
                return await self._change(
                    dataclasses.replace(channel, reveal_emoji=emoji),
                    f"React {emoji} on a question to reveal its outline.",
                )
            case SetFollowUps(policy=policy):
                return await self._change(
                    dataclasses.replace(channel, followup_policy=policy),
                    f"Follow-up questions: {policy.value}.",
                )
            case SetGrace(hours=hours):
                return await self._change(
                    dataclasses.replace(channel, grace_hours=hours),
                    f"A slot missed during downtime is still posted up to {hours:g} h late.",
                )
            case SetRevealReactors(count=count):
                return await self._change(
                    dataclasses.replace(channel, reveal_min_reactors=count),
                    f"The outline is revealed once {count} member(s) react.",
                )
        raise AssertionError(f"unhandled command {command!r}")

    async def _post_now(self, channel: ChannelSettings, topic: str | None) -> Response:
        engine = self._engine
        if topic is not None and topic not in engine.catalog.topics():
            known = ", ".join(engine.catalog.topics())
            return Response(cards.error(f"Unknown topic {quoted(topic)}. Topics: {known}."))
        try:
            round_ = await engine.start_round(
                channel, scheduled_for=engine.clock.now(), scheduled=False, topic=topic
            )
        except NoQuestions:
            return Response(
                cards.error("No topic is enabled. Enable one with `/quiz topics enable TOPIC`.")
            )
        if round_ is None:
            return Response(cards.info("A question was just posted."))
        return Response(cards.info(f"Posting question #{round_.number}."))

    async def _set_topics(
        self, channel: ChannelSettings, enable: bool, topics: tuple[str, ...]
    ) -> Response:
        known = self._engine.catalog.topics()
        unknown = [t for t in topics if t not in known]
        if unknown:
            return Response(
                cards.error(f"Unknown topic(s): {', '.join(unknown)}. Topics: {', '.join(known)}.")
            )
        current = set(known if channel.topics is None else channel.topics)
        current = current | set(topics) if enable else current - set(topics)
        if not current:
            return Response(cards.error("At least one topic must stay enabled."))
        enabled = None if current >= set(known) else tuple(sorted(current))
        shown = ", ".join(sorted(current))
        return await self._change(
            dataclasses.replace(channel, topics=enabled), f"Enabled topics: {shown}."
        )

    async def _change(self, channel: ChannelSettings, note: str) -> Response:
        await self._engine.save_channel(channel)
        self._schedules.channel_changed(channel)
        log.info("channel settings changed: %s", note, extra=about(channel.ref))
        return Response(cards.info("Quiz settings changed", note), public=True)
