"""Wires the bot together from Settings and runs it until told to stop.

The composition root: the one place that joins the platforms (the list of
:mod:`adapters.platforms`), the store and the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from datetime import timedelta
from typing import TextIO

from adapters.console.connector import ConsolePlatform
from adapters.console.view import CONSOLE_CHANNEL, ShownRound
from adapters.ops.coach_wiring import coach_setup
from adapters.ops.health import HealthServer, start_health_server
from adapters.ops.heap import collections_paused, freeze_start_up_heap
from adapters.ops.metrics import PrometheusMetrics
from adapters.platforms import PlatformChoice, choose_platforms
from adapters.plugin import Wiring
from bot.kernel.clock import ShiftedClock, SystemClock
from bot.kernel.config import QuizConfig
from bot.kernel.errors import PlatformError
from bot.kernel.platform import Platform
from bot.kernel.runtime import Connector, EndsForGood, WatchesInstalls
from bot.member_data.home import ShowsHome
from bot.service import QuizService
from bot.settings import Settings
from questions.loader import load_catalog
from storage.database import configured_database, open_database

log = logging.getLogger(__name__)


def quiz_config(settings: Settings) -> QuizConfig:
    return QuizConfig(
        default_timezone=settings.timezone,
        default_schedule=settings.default_schedule,
        reveal_emoji=settings.reveal_emoji,
        followup_policy=settings.followup_policy,
        grace_hours=settings.grace_hours,
        replicas_share_store=configured_database(settings).kind == "postgres",
        dashboard_url=dashboard_url(settings),
        dashboard_secret=(
            settings.dashboard_secret.get_secret_value() if settings.dashboard_secret else None
        ),
        dashboard_link_minutes=settings.dashboard_link_minutes,
    )


def dashboard_url(settings: Settings) -> str | None:
    """Where /quiz dashboard links point: the setting, else the health server's address
    (None without one: the pages are not served)."""
    if settings.http_port is None:
        return None
    if settings.dashboard_url:
        return settings.dashboard_url
    host = settings.health_host
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{settings.http_port}"


async def _round_on_view(service: QuizService) -> ShownRound | None:
    """The console's open round as a previous run left it: its thread and answers."""
    round_ = await service.open_round(CONSOLE_CHANNEL)
    if round_ is None or round_.thread is None or round_.question_message is None:
        return None
    answers = await service.round_answers(round_.id)
    return ShownRound(
        round_.question_message,
        round_.thread,
        [(answer.message_id, answer.member_name) for answer in answers],
    )


def _platform_connectors(
    choice: PlatformChoice, wiring: Wiring
) -> tuple[dict[str, Platform], list[Connector], ConsolePlatform | None]:
    platforms: dict[str, Platform] = {}
    connectors: list[Connector] = []
    console: ConsolePlatform | None = None
    for setup in choice.running:
        platform = platforms[setup.name] = setup.build(wiring)
        if isinstance(platform, ConsolePlatform):
            console = platform
        else:
            connectors.append(platform)
    if console is not None:
        connectors.append(console)  # started last: its first line may act on the others
    return platforms, connectors, console


async def _first_end(connectors: list[Connector]) -> str:
    """The cause of the first connection that ends for good; waits forever if none can."""
    watched = [
        asyncio.create_task(c.until_ended()) for c in connectors if isinstance(c, EndsForGood)
    ]
    if not watched:
        await asyncio.Event().wait()
    try:
        done, _ = await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        return done.pop().result()
    finally:
        for task in watched:
            task.cancel()


def _cause_of_end(lost: asyncio.Task[str] | None) -> str | None:
    if lost is None:
        return None
    if not lost.done():
        lost.cancel()
        return None
    if lost.cancelled() or lost.exception() is not None:
        return None
    return lost.result()


async def run_bot(
    settings: Settings,
    *,
    stdin: TextIO,
    stdout: TextIO,
    platforms: PlatformChoice | None = None,
) -> int:
    """Run ``platforms`` (by default those ``settings`` name, with their settings from the
    environment) until end of console input, ``:quit``, SIGTERM or SIGINT; returns an exit
    code.

    Raises PlatformError with the cause when a connection ends for good."""
    choice = platforms if platforms is not None else choose_platforms(settings)
    names = choice.names
    catalog = load_catalog(settings.packs_dir)
    scripted = "console" in names and not stdin.isatty()
    database = configured_database(settings)
    lease = timedelta(seconds=settings.outbox_lease_seconds)
    async with (
        open_database(database, lease=lease, synchronous=settings.sqlite_synchronous) as store,
        coach_setup(settings) as coach,
    ):
        # a script's clock moves on by what its `:wait` lines let pass (nothing fires by itself)
        clock = ShiftedClock() if scripted else SystemClock()
        metrics = PrometheusMetrics(store.outbox, clock=clock)
        wiring = Wiring(store, catalog.topics, stdin, stdout)
        built, connectors, console = _platform_connectors(choice, wiring)
        service = QuizService(
            store=store,
            platforms=built,
            catalog=catalog,
            clock=clock,
            config=quiz_config(settings),
            background=not scripted,  # a script's transcript must not depend on timing
            metrics=metrics,
            coach=coach,
        )
        for connector in connectors:
            if isinstance(connector, WatchesInstalls):
                connector.watch_installs(service)
            if isinstance(connector, ShowsHome):
                connector.show_home(service.home)
        if console is not None:
            console.after_each_line(service.settle)
            if scripted:
                console.let_time_pass(service.pass_time)
            console.show_round(await _round_on_view(service))
        freeze_start_up_heap()  # what is loaded: the start's collections need not scan it
        with collections_paused():  # what the start builds lives on: nothing to collect
            await service.start()
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stopping.set)
        health: HealthServer | None = None
        lost: asyncio.Task[str] | None = None
        try:
            if settings.http_port is not None:
                health = await start_health_server(
                    settings.http_port,
                    store.meta,
                    connectors,
                    metrics,
                    host=settings.health_host,
                    dashboard=service.core.dashboard,
                )
            for connector in connectors:
                await connector.start(service.handle)
            freeze_start_up_heap()
            lost = asyncio.create_task(_first_end(connectors), name="connection-watch")
            stopper = asyncio.create_task(stopping.wait())
            reading: asyncio.Task[None] | None = None
            if console is not None:
                reading = asyncio.create_task(console.until_input_ends())
            else:
                log.info("quizbot running on %s; stop with SIGTERM or Ctrl-C", ", ".join(names))
            waiting = {stopper, lost} | ({reading} if reading is not None else set())
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if reading is not None:
                if reading.done():
                    reading.result()
                else:
                    reading.cancel()
        finally:
            log.info("stopping: finishing in-flight sends")
            cause = _cause_of_end(lost)
            for connector in connectors:
                try:
                    await connector.stop()
                except Exception:
                    log.exception("stopping a platform failed")
            await service.stop(settings.shutdown_timeout)
            if health is not None:
                await health.close()
    if cause is not None:
        raise PlatformError(cause)
    return 0
