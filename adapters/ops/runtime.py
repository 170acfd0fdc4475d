"""Wires the bot together from Settings and runs it until told to stop.

The composition root: the only place that knows every adapter, the store
and the core at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import signal
import sys
import threading
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import TextIO

from adapters.console.connector import ConsolePlatform
from adapters.console.session import ConsoleSession
from adapters.ops.health import HealthServer, start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.clock import SystemClock
from bot.config import QuizConfig
from bot.errors import PlatformError
from bot.ports import Connector, EndsForGood, Platform, WatchesInstalls
from bot.service import QuizService
from bot.settings import Settings
from questions.catalog import Catalog
from questions.loader import load_catalog
from storage.database import AnyStore, configured_database, open_database

log = logging.getLogger(__name__)


def quiz_config(settings: Settings) -> QuizConfig:
    return QuizConfig(
        default_timezone=settings.timezone,
        default_schedule=settings.default_schedule,
        reveal_emoji=settings.reveal_emoji,
        followup_policy=settings.followup_policy,
        grace_hours=settings.grace_hours,
        replicas_share_store=configured_database(settings).kind == "postgres",
    )


async def _stdin_lines(stream: TextIO, session: ConsoleSession, prompt: bool) -> AsyncIterator[str]:
    """Lines of ``stream``, read by a daemon thread.

    Not asyncio.to_thread: asyncio.run joins its executor's threads at exit, and a
    readline() blocked on idle terminal input must not hold up a SIGTERM exit.
    Bytes that are not valid in the stream's encoding become U+FFFD, so a bad line
    is answered like any other instead of ending the input.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")

    def read() -> None:
        while True:
            try:
                line = stream.readline()
            except (OSError, ValueError) as problem:  # the input cannot be read: end it
                log.warning("console input ended: %s", problem)
                line = ""
            try:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            except RuntimeError:  # the loop is closed: we are shutting down
                return
            if not line:
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    while True:
        if prompt:
            sys.stdout.write(session.prompt())
            sys.stdout.flush()
        line = await lines.get()
        if not line:
            return
        yield line


def _platform_connectors(
    names: list[str], settings: Settings, catalog: Catalog, store: AnyStore, out: TextIO
) -> tuple[dict[str, Platform], list[Connector], ConsolePlatform | None]:
    platforms: dict[str, Platform] = {}
    connectors: list[Connector] = []
    console: ConsolePlatform | None = None
    for name in names:
        if name == "console":
            console = ConsolePlatform(out, charts_dir=settings.charts_dir)
            platforms[name] = console
        elif name == "slack":
            from adapters.slack.connector import create_slack_platform

            slack = create_slack_platform(
                settings,
                http=settings.slack_mode == "http",
                port=settings.slack_http_port,
                progress=store,
                installations=store.installations,
            )
            platforms[name] = slack
            connectors.append(slack)
        elif name == "discord":
            from adapters.discord.connector import create_discord_platform

            discord_platform = create_discord_platform(settings, topics=catalog.topics, store=store)
            platforms[name] = discord_platform
            connectors.append(discord_platform)
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


async def run_bot(settings: Settings, *, stdin: TextIO, stdout: TextIO) -> int:
    """Run until end of console input, ``:quit``, SIGTERM or SIGINT; returns an exit code.

    Raises PlatformError with the cause when a connection ends for good."""
    names = settings.platforms()
    catalog = load_catalog(settings.packs_dir)
    interactive = "console" in names and stdin.isatty()
    scripted = "console" in names and not interactive
    database = configured_database(settings)
    lease = timedelta(seconds=settings.outbox_lease_seconds)
    async with open_database(
        database, lease=lease, synchronous=settings.sqlite_synchronous
    ) as store:
        metrics = PrometheusMetrics(store)
        platforms, connectors, console = _platform_connectors(
            names, settings, catalog, store, stdout
        )
        service = QuizService(
            store=store,
            platforms=platforms,
            catalog=catalog,
            clock=SystemClock(),
            config=quiz_config(settings),
            background=not scripted,  # a script's transcript must not depend on timing
            metrics=metrics,
        )
        for connector in connectors:
            if isinstance(connector, WatchesInstalls):
                connector.watch_installs(service)
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
                health = await start_health_server(settings.http_port, store, connectors, metrics)
            for connector in connectors:
                await connector.start(service.handle)
            lost = asyncio.create_task(_first_end(connectors), name="connection-watch")
            stopper = asyncio.create_task(stopping.wait())
            reading: asyncio.Task[None] | None = None
            if console is not None:
                session = ConsoleSession(service, console, echo=scripted)
                if interactive:
                    console.note("quizbot on the console, channel #practice. :help lists controls.")
                reading = asyncio.create_task(
                    session.run(_stdin_lines(stdin, session, prompt=interactive))
                )
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
