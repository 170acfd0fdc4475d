"""``/healthz`` and ``/metrics`` over HTTP (aiohttp), for orchestrators and Prometheus."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from aiohttp import web

from adapters.ops.dashboard_routes import add_dashboard_routes
from adapters.ops.log_throttle import HttpServerLog
from adapters.ops.metrics import METRICS_CONTENT_TYPE, PrometheusMetrics
from bot.dashboard.pages import DashboardPages
from bot.kernel.runtime import Connector
from bot.kernel.stores import MetaStore

log = logging.getLogger(__name__)

# No authentication: only this host reaches them unless QUIZBOT_HEALTH_HOST says otherwise.
DEFAULT_HOST = "127.0.0.1"
STORE_PROBE_TIMEOUT = 2.0
# A key nobody sets: reading it is the cheapest query that proves the database answers.
_PROBE_KEY = "healthz-probe"


def connector_name(connector: Connector) -> str:
    name = getattr(connector, "name", None)
    return name if isinstance(name, str) else type(connector).__name__


async def health_problems(store: MetaStore, connectors: Sequence[Connector]) -> list[str]:
    """Why the bot is unhealthy, one reason per entry; empty when healthy."""
    problems: list[str] = []
    try:
        await asyncio.wait_for(store.get_meta(_PROBE_KEY), STORE_PROBE_TIMEOUT)
    except TimeoutError:
        problems.append(f"database: no answer within {STORE_PROBE_TIMEOUT:g} s")
    except Exception as error:
        problems.append(f"database: {type(error).__name__}: {error}")
    problems.extend(f"{connector_name(c)}: not connected" for c in connectors if not c.connected)
    return problems


@dataclass
class HealthServer:
    """A running server; ``port`` is the bound port (useful when asked for port 0)."""

    runner: web.AppRunner
    host: str
    port: int

    async def close(self) -> None:
        await self.runner.cleanup()


def health_app(
    store: MetaStore,
    connectors: Sequence[Connector],
    metrics: PrometheusMetrics,
    dashboard: DashboardPages | None = None,
) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        problems = await health_problems(store, connectors)
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def metrics_text(request: web.Request) -> web.Response:
        body = await metrics.exposition()
        response = web.Response(body=body)
        # aiohttp refuses a charset inside content_type=, so set the header as is.
        response.headers["Content-Type"] = METRICS_CONTENT_TYPE
        return response

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_text)
    if dashboard is not None:
        add_dashboard_routes(app, dashboard)
    return app


async def start_health_server(
    port: int,
    store: MetaStore,
    connectors: Sequence[Connector],
    metrics: PrometheusMetrics,
    *,
    host: str = DEFAULT_HOST,
    dashboard: DashboardPages | None = None,
) -> HealthServer:
    """Serve ``/healthz`` and ``/metrics`` (and, given ``dashboard``, the pages of
    ``/quiz dashboard``) on ``host:port`` until ``close()``."""
    runner = web.AppRunner(
        health_app(store, connectors, metrics, dashboard),
        access_log=None,
        # a malformed request is the client's fault: one throttled line, no traceback
        logger=HttpServerLog(logging.getLogger("aiohttp.server")),
    )
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise OSError(
            error.errno,
            f"cannot serve /healthz and /metrics on {host}:{port}: {error.strerror}"
            " (choose another QUIZBOT_HTTP_PORT / --http-port)",
        ) from error
    except BaseException:
        await runner.cleanup()
        raise
    bound = runner.addresses[0][1] if runner.addresses else port
    log.info("serving /healthz and /metrics on %s:%d", host, bound)
    return HealthServer(runner, host, int(bound))
