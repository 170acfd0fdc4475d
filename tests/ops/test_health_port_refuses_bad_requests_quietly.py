"""A malformed request to the health port (a broken request line, an oversized header, a
bad length) gets 400 and a flood of them logs one line: never a traceback, never a 5xx."""

from __future__ import annotations

import asyncio
import logging

import pytest

from adapters.ops.health import start_health_server
from adapters.ops.metrics import PrometheusMetrics
from storage.sqlite.store import SqliteStore
from tests.ops.test_health import FakeConnector, get, store  # noqa: F401 - the store fixture

MALFORMED = [
    b"GET /healthz HTTP/9.9\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 20_000 + b"\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    b"GET /healthz?\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GARBAGE\r\n\r\n",
]


async def raw_request(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(64), timeout=5)
    finally:
        writer.close()


async def test_malformed_requests_get_400_and_one_line_without_a_traceback(
    store: SqliteStore,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = await start_health_server(
        0, store.meta, [FakeConnector("slack")], PrometheusMetrics(store.outbox), host="127.0.0.1"
    )
    try:
        with caplog.at_level(logging.DEBUG, logger="aiohttp"):
            for request in MALFORMED * 3:
                answer = await raw_request(server.port, request)
                assert answer.startswith(b"HTTP/1.0 400 Bad Request"), (request[:40], answer)
        assert (await get(server, "/healthz"))[0] == 200  # and it still answers
    finally:
        await server.close()
    assert not [r for r in caplog.records if r.exc_info and r.levelno > logging.DEBUG]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    refused = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(refused) == 1 and "malformed" in refused[0].getMessage()
