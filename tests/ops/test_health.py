"""/healthz answers 200 only when the database answers and every platform is connected."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from adapters.ops.health import HealthServer, start_health_server
from adapters.ops.metrics import PrometheusMetrics
from bot.kernel.runtime import EventHandler
from storage.sqlite.store import SqliteStore


@dataclass
class FakeConnector:
    name: str
    connected: bool = True

    async def start(self, handler: EventHandler) -> None:
        self.connected = True

    async def stop(self) -> None:
        self.connected = False


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore.open(db_path) as opened:
        yield opened


async def get(server: HealthServer, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, await response.text(), response.headers["Content-Type"]


async def test_healthy_when_the_store_answers_and_every_platform_is_connected(
    store: SqliteStore,
) -> None:
    connectors = [FakeConnector("slack"), FakeConnector("discord")]
    server = await start_health_server(
        0, store.meta, connectors, PrometheusMetrics(store.outbox), host="127.0.0.1"
    )
    try:
        assert server.port > 0
        assert await get(server, "/healthz") == (200, "ok\n", "text/plain; charset=utf-8")
    finally:
        await server.close()


async def test_a_disconnected_platform_makes_it_unhealthy_and_says_which(
    store: SqliteStore,
) -> None:
    discord = FakeConnector("discord")
    server = await start_health_server(
        0,
        store.meta,
        [FakeConnector("slack"), discord],
        PrometheusMetrics(store.outbox),
        host="127.0.0.1",
    )
    try:
        discord.connected = False
        status, text, _ = await get(server, "/healthz")
        assert (status, text) == (503, "discord: not connected\n")
        discord.connected = True
        assert (await get(server, "/healthz"))[0] == 200
    finally:
        await server.close()


async def test_a_closed_database_makes_it_unhealthy(db_path: Path) -> None:
    store = await SqliteStore.connect(db_path)
    server = await start_health_server(
        0, store.meta, [], PrometheusMetrics(store.outbox), host="127.0.0.1"
    )
    try:
        await store.close()
        status, text, _ = await get(server, "/healthz")
        assert status == 503
        assert text.startswith("database: StoreClosedError: ")
    finally:
        await server.close()


async def test_a_port_in_use_is_a_clear_error(store: SqliteStore) -> None:
    metrics = PrometheusMetrics(store.outbox)
    first = await start_health_server(0, store.meta, [], metrics, host="127.0.0.1")
    try:
        with pytest.raises(OSError, match=r"cannot serve /healthz and /metrics on 127\.0\.0\.1"):
            await start_health_server(first.port, store.meta, [], metrics, host="127.0.0.1")
    finally:
        await first.close()


async def test_the_health_port_listens_on_localhost_unless_told_otherwise(
    store: SqliteStore,
) -> None:
    """/healthz and /metrics have no authentication: only this host reaches them unless
    QUIZBOT_HEALTH_HOST says otherwise."""
    server = await start_health_server(0, store.meta, [], PrometheusMetrics(store.outbox))
    try:
        assert server.host == "127.0.0.1"
        assert [address[0] for address in server.runner.addresses] == ["127.0.0.1"]
        assert (await get(server, "/healthz"))[0] == 200
    finally:
        await server.close()
