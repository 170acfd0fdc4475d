"""QuizService: the running core. Routes inbound events, runs the outbox and the scheduler.

Adapters call :meth:`QuizService.handle` for every inbound event; the
service never touches the network itself except through the Platform port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping
from datetime import datetime, timedelta

from bot.channel_sync import ChannelSync
from bot.channels.disabling import ChannelDisabling
from bot.coaching.setup import CoachSetup
from bot.composition import build_core
from bot.feature import ChannelSchedule, OwnSchedule, button_handler, form_handler
from bot.features import FEATURES, REGISTRY
from bot.inbound import DeliveryLog, InboundChain
from bot.kernel.clock import Clock
from bot.kernel.config import QuizConfig
from bot.kernel.events import (
    ButtonPress,
    DirectMessage,
    Event,
    FormSubmit,
    Reply,
)
from bot.kernel.metrics import Metrics, NoMetrics
from bot.kernel.models import (
    AnswerMode,
    AnswerOutcome,
    AnswerRecord,
    ChannelSettings,
    Round,
)
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Response
from bot.kernel.stores import ChannelChanges
from bot.outbox.performers import Performers
from bot.outbox.retention import Retention
from bot.outbox.store import LeasedClaims
from bot.outbox.worker import OutboxWorker
from bot.pairing.weekly import IsAway
from bot.quiz_command.help import HelpCommands
from bot.quiz_command.runner import CommandRunner
from bot.rounds.slots import ChannelSlots
from bot.scheduling.next_post import next_post
from bot.scheduling.passing_time import (
    AtEachMoment,
    PassingTime,
    SettableClock,
    Timer,
    channel_timer,
    question_plan,
)
from bot.scheduling.scheduler import QuizScheduler
from bot.scheduling.zone_groups import StartingChannels
from bot.store import Store
from questions.catalog import Catalog
from questions.pack import Question

log = logging.getLogger(__name__)


class QuizService:
    """The running core: owns the engine, the inbound chain, the outbox worker and the
    scheduler, and is the one entry point adapters call."""

    def __init__(
        self,
        *,
        store: Store,
        platforms: Mapping[str, Platform],
        catalog: Catalog,
        clock: Clock,
        config: QuizConfig | None = None,
        rng: random.Random | None = None,
        background: bool = True,
        metrics: Metrics | None = None,
        is_away: IsAway | None = None,
        coach: CoachSetup | None = None,
    ) -> None:
        self.config = config or QuizConfig()
        self.store = store
        self.platforms = dict(platforms)
        self.clock = clock
        self.metrics: Metrics = metrics or NoMetrics()
        self.performers = Performers()
        self.outbox = OutboxWorker(
            outbox=store.outbox,
            rounds=store.rounds,
            platforms=self.platforms,
            performers=self.performers,
            known_question=self._known_question,
            clock=clock,
            config=self.config,
            disable_channel=self.disable_channel,
            metrics=self.metrics,
            lease=store.outbox_lease if isinstance(store, LeasedClaims) else None,
        )
        self.core = build_core(
            store=store,
            platforms=self.platforms,
            catalog=catalog,
            clock=clock,
            config=self.config,
            rng=rng or random.Random(),
            metrics=self.metrics,
            outbox=self.outbox,
            channel_changed=self.channel_changed,
            replan=self.replan,
            is_away=is_away,
            coach=coach,
        )
        core = self.core
        self.engine, self.learning, self.recaps = core.engine, core.learning, core.recaps
        self.pairings, self.practice, self.reminders = core.pairings, core.practice, core.reminders
        self.blind, self.home, self.notices = core.blind, core.home, core.notices
        self.parts = tuple(f.build(core) for f in FEATURES if f.build is not None)
        for parts in self.parts:
            self.performers.add(*parts.performers)
            for on_me in parts.me_sections:
                core.me_sections.add(on_me.rank, on_me.section)
            for on_page in parts.settings_on_page:
                core.settings_on_page.add(on_page.rank, on_page.setting)
            for on_dashboard in parts.dashboard_sections:
                core.dashboard_sections[on_dashboard.page].add(
                    on_dashboard.rank, on_dashboard.section
                )
        handlers = (HelpCommands(), *(h for parts in self.parts for h in parts.handlers))
        self.command_runner = CommandRunner(
            REGISTRY, self.engine, self.channel_changed, handlers, self.platforms
        )
        self.inbound = InboundChain(
            self.engine,
            self.platforms,
            DeliveryLog(store.deliveries, clock, self.metrics),
            self._dispatch,
            self._on_reply,
            self.command_runner.run,
            REGISTRY.parse_invocation,
        )
        self.disabling = ChannelDisabling(
            channels=store.channels,
            outbox=store.outbox,
            save=self.engine.save_channel,
            rescheduled=self.channel_changed,
            clock=clock,
        )
        self.slots = ChannelSlots(
            channels=store.channels,
            rounds=store.rounds,
            meta=store.meta,
            skipped_days=store.skipped_days,
            start_round=self.engine.start_round,
            platforms=self.platforms,
            clock=clock,
        )
        # Without background work (tests), nothing fires by itself: tests call
        # post_slot() and settle() when they choose.
        self.background = background
        self.scheduler = (
            QuizScheduler(self.slots.post_slot, clock, spread=self.config.replicas_share_store)
            if background
            else None
        )
        # the features' scheduled work (recaps, pairings, reminders), each with its scheduler
        self.schedules = tuple(s for parts in self.parts for s in parts.schedules)
        self.schedulers: dict[str, QuizScheduler] = {}
        for schedule in self.schedules:
            if schedule.kind in self.schedulers or schedule.kind == "channel":
                raise ValueError(f"two schedules are named {schedule.kind!r}")
            scheduler = (
                QuizScheduler(schedule.on_slot, clock, kind=schedule.kind) if background else None
            )
            if scheduler is not None:
                self.schedulers[schedule.kind] = scheduler
            if isinstance(schedule, OwnSchedule):
                schedule.fired_by(scheduler)
        self._stopping = asyncio.Event()
        self._outbox_task: asyncio.Task[None] | None = None
        self.retention = Retention(
            store.outbox,
            store.deliveries,
            clock,
            outbox_retention=timedelta(days=self.config.outbox_retention_days),
            event_retention=timedelta(days=self.config.event_retention_days),
        )
        self._retention_task: asyncio.Task[None] | None = None
        # Replicas sharing the store follow each other's changes of channels, bank
        # questions, reminders and pairing slots; this only keeps what is cached current, so it runs
        # without background work (tests) too.
        self.channel_sync = (
            ChannelSync(
                store,
                store.channels.get_channel_by_id,
                self.channel_stored,
                also=tuple(
                    followed
                    for parts in self.parts
                    if parts.follows is not None
                    for followed in parts.follows(store)
                ),
            )
            if isinstance(store, ChannelChanges)
            else None
        )

    async def _known_question(self, channel: ChannelRef, question_id: int) -> Question | None:
        return await self.engine.known_question(channel, question_id)

    # life cycle

    async def start(self) -> None:
        """Register questions, rebuild the schedule, post missed slots, start the workers."""
        if self.channel_sync is not None:
            await self.channel_sync.begin()  # before the reads: no later change is missed
        await self.engine.load()
        # their zone groups worked out once for the features that plan by them
        channels = StartingChannels(await self.store.channels.list_channels())
        self.engine.know_channels(channels)
        await self.slots.catch_up(channels)
        for schedule in self.schedules:
            await schedule.begin(channels, self.platforms.keys())
        if self.scheduler is not None:
            self._plan_every_channel(channels)
            self.scheduler.start()
            for scheduler in self.schedulers.values():
                scheduler.start()
        if self.channel_sync is not None:
            self.channel_sync.start()
        if self.background:
            self._outbox_task = asyncio.create_task(self.outbox.run(self._stopping), name="outbox")
            self._retention_task = asyncio.create_task(
                self.retention.run(self._stopping), name="retention"
            )

    async def stop(self, budget_seconds: float = 10.0) -> None:
        """Stop taking work and give in-flight sends up to ``budget_seconds`` to finish."""
        self._stopping.set()
        if self.channel_sync is not None:
            await self.channel_sync.stop()
        if self.scheduler is not None:
            await self.scheduler.shutdown()
        for scheduler in self.schedulers.values():
            await scheduler.shutdown()
        if self._outbox_task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._outbox_task), budget_seconds)
            except TimeoutError:
                log.warning("in-flight sends did not finish within %.0f s", budget_seconds)
                self._outbox_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._outbox_task
            self._outbox_task = None
        await self.outbox.stop_detached()
        if self._retention_task is not None:
            await self._retention_task  # it returns as soon as stopping is set (between batches)
            self._retention_task = None

    async def settle(self) -> None:
        """Perform outbox work until nothing more is due now (tests, end of console input)."""
        while await self.outbox.run_due() or await self.outbox.finish_detached():
            pass

    # inbound

    async def handle(self, event: Event) -> Response | None:
        """The one entry point for inbound events: the steps of :mod:`bot.inbound`.

        Raises :class:`~bot.kernel.errors.NotRecorded` (chained from the cause) when an answer,
        edit or reaction could not be recorded, so the adapter never acknowledges it
        and it is delivered again. A command or a button that fails gets an error card.
        """
        return await self.inbound(event)

    async def _on_reply(self, event: Reply, channel: ChannelSettings, platform: Platform) -> None:
        if channel.answer_mode is not AnswerMode.BLIND:
            outcome = await self.engine.on_reply(event, channel)
        elif await self.blind.take_reply(event, channel, platform):
            return
        else:
            outcome = await self.engine.on_reply(event, channel)
            if outcome in (AnswerOutcome.SCORED, AnswerOutcome.KEPT):
                await self.blind.hint_after_reply(event, channel, platform)
        if outcome is AnswerOutcome.SCORED:
            for parts in self.parts:
                if parts.answered is not None:
                    await parts.answered(event, channel)

    async def _dispatch(self, event: Event, platform: Platform) -> Response | None:
        match event:
            case ButtonPress():
                return await button_handler(self.parts, event)(event, platform)
            case FormSubmit():
                return await form_handler(self.parts, event)(event, platform)
            case DirectMessage():
                for parts in self.parts:
                    if parts.direct is not None:
                        await parts.direct(event, platform)
                return None
        raise AssertionError(f"unknown event {event!r}")

    # what a connector may ask (the console shows where a typed line goes)

    async def open_round(self, channel: ChannelRef) -> Round | None:
        """The channel's open round; None when there is none or no quiz in the channel."""
        settings = await self.engine.channel(channel)
        return None if settings is None else await self.store.rounds.open_round(settings.id)

    async def round_answers(self, round_id: int) -> list[AnswerRecord]:
        """A round's answers in the order they were given."""
        return await self.store.answers.round_answers(round_id)

    # scheduling

    async def post_slot(self, channel_id: int, slot: datetime) -> None:
        """A scheduled slot fired for a channel."""
        await self.slots.post_slot(channel_id, slot)

    def channel_changed(self, channel: ChannelSettings) -> None:
        if self.scheduler is None:
            return
        if channel.ref.platform in self.platforms:
            self.scheduler.set_channel(channel)
        else:
            self.scheduler.remove_channel(channel.id)
        for schedule in self.schedules:
            if isinstance(schedule, ChannelSchedule):
                self._plan(schedule, channel)

    def _plan_every_channel(self, channels: list[ChannelSettings]) -> None:
        """What :meth:`channel_changed` does for each channel, each scheduler's in one pass
        (start-up plans 10,000 channels in four schedulers); nothing is planned yet."""
        if self.scheduler is None:
            return
        here = [channel for channel in channels if channel.ref.platform in self.platforms]
        self.scheduler.set_channels(here)
        for schedule in self.schedules:
            scheduler = self.schedulers.get(schedule.kind)
            if not isinstance(schedule, ChannelSchedule) or scheduler is None:
                continue
            if schedule.plan_groups is not None:
                scheduler.set_group_plans(schedule.plan_groups(channels, self.platforms.keys()))
            else:
                scheduler.set_plans((channel.id, schedule.plan(channel)) for channel in here)

    def _plan(self, schedule: ChannelSchedule, channel: ChannelSettings) -> None:
        scheduler = self.schedulers.get(schedule.kind)
        if scheduler is not None:
            wanted = channel.ref.platform in self.platforms
            scheduler.set_plan(channel.id, schedule.plan(channel) if wanted else None)

    def replan(self, kind: str, channel: ChannelSettings) -> None:
        """Plan the channel's scheduled job of ``kind`` again (a feature's row of the channel
        changed, here or on another replica)."""
        for schedule in self.schedules:
            if isinstance(schedule, ChannelSchedule) and schedule.kind == kind:
                self._plan(schedule, channel)

    def channel_stored(self, channel: ChannelSettings) -> None:
        """Another process (a replica) changed the channel: its settings as stored now
        replace the cached ones and its schedule follows, as after a change made here."""
        self.engine.remember_channel(channel)
        self.channel_changed(channel)

    async def pass_time(self, duration: timedelta, at_each: AtEachMoment | None = None) -> datetime:
        """Let ``duration`` pass on the service's clock (one that can be set: a console
        script's) doing in order what falls due meanwhile, as the schedulers and the outbox
        worker would (:mod:`bot.scheduling.passing_time`); returns the time at its end."""
        if not isinstance(self.clock, SettableClock):
            raise TypeError("time can pass only on a clock that can be set")
        channels = self._channels_here
        timers = (
            channel_timer(channels, question_plan, self.slots.post_slot),
            *(
                channel_timer(channels, s.plan, s.on_slot)
                if isinstance(s, ChannelSchedule)
                else Timer(s.plans, s.on_slot)
                for s in self.schedules
            ),
        )
        passing = PassingTime(self.clock, timers, self._next_action_due, self.settle)
        return await passing.wait(duration, at_each)

    async def _channels_here(self) -> list[ChannelSettings]:
        channels = await self.store.channels.list_channels()
        return [channel for channel in channels if channel.ref.platform in self.platforms]

    async def _next_action_due(self, after: datetime) -> datetime | None:
        return await self.store.outbox.next_due_after(after, platforms=self.platforms.keys())

    def next_post(self, channel: ChannelSettings) -> datetime | None:
        return next_post(channel, self.clock.now())

    async def disable_channel(self, channel: ChannelSettings, reason: str) -> None:
        """The platform says the channel is gone (the outbox worker calls this)."""
        await self.disabling.disable_channel(channel, reason)

    async def disable_workspace(self, platform: str, workspace: str) -> int:
        """The app was removed from a workspace (the core's ``WorkspaceInstalls``)."""
        return await self.disabling.disable_workspace(platform, workspace)

    async def enable_workspace(self, platform: str, workspace: str) -> int:
        """The app was installed (again) in a workspace (the core's ``WorkspaceInstalls``)."""
        return await self.disabling.enable_workspace(platform, workspace)
