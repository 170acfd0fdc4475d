"""How Slack's requests reach the bolt app: Socket Mode (default) or HTTP.

Both only carry requests to ``AsyncApp.async_dispatch``; what a request means
is decided by the listeners (``adapters.slack.listeners``).
"""

from __future__ import annotations

import logging
from typing import Protocol

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.app.async_app import AsyncApp
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.request.async_request import AsyncBoltRequest

from adapters.ops.log_throttle import HttpServerLog
from adapters.slack.errors import slack_call
from adapters.slack.http_edge import SlackHttpEdge
from adapters.slack.socket_edge import EdgeSocketModeHandler

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


class SlackTransport(Protocol):
    """How Slack's requests reach the bolt app: Socket Mode or HTTP."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    @property
    def connected(self) -> bool: ...


class SocketModeTransport:
    """A WebSocket to Slack opened with the app-level token: no public URL needed."""

    def __init__(self, app: AsyncApp, app_token: str) -> None:
        self._app = app
        self._app_token = app_token
        self._handler: EdgeSocketModeHandler | None = None

    async def start(self) -> None:
        handler = EdgeSocketModeHandler(self._app, self._app_token)
        try:
            # The SDK's connect() retries a failing connection forever; asking for the
            # WebSocket URL first turns a wrong app token into a clear error instead.
            async with slack_call("apps.connections.open"):
                handler.client.wss_uri = await handler.client.issue_new_wss_url()
            await handler.connect_async()  # type: ignore[no-untyped-call]
        except BaseException:
            await handler.close_async()  # type: ignore[no-untyped-call]
            raise
        self._handler = handler
        log.info("connected to Slack over Socket Mode")

    async def stop(self) -> None:
        if self._handler is not None:
            await self._handler.close_async()  # type: ignore[no-untyped-call]
            self._handler = None

    @property
    def connected(self) -> bool:
        if self._handler is None:
            return False
        client = self._handler.client
        session = client.current_session
        return not client.closed and session is not None and not session.closed


class HttpTransport:
    """An aiohttp server answering Slack's signed requests at ``/slack/events``.

    Events, the slash command and interactivity all use that one URL. The
    signature and the timestamp of each request are checked on its raw bytes
    first (``http_edge``: 401 otherwise); bolt checks them again. With an OAuth
    flow (installs in many workspaces) it also serves the browser's
    ``GET /slack/install`` and ``GET /slack/oauth_redirect``, unsigned by nature:
    the flow's one-time state (and its cookie) protects the redirect.
    """

    def __init__(
        self,
        app: AsyncApp,
        *,
        signing_secret: str,
        host: str,
        port: int,
        path: str = EVENTS_PATH,
        oauth_flow: AsyncOAuthFlow | None = None,
    ) -> None:
        self._app = app
        self._oauth_flow = oauth_flow
        self._edge = SlackHttpEdge(signing_secret)
        self._host = host
        self._port = port
        self._path = path
        self._runner: web.AppRunner | None = None
        self.bound_port: int | None = None

    def web_app(self) -> web.Application:
        application = web.Application()
        application.router.add_post(self._path, self._handle)
        if self._oauth_flow is not None:
            application.router.add_get(self._oauth_flow.install_path, self._install)
            application.router.add_get(self._oauth_flow.redirect_uri_path, self._oauth_redirect)
        return application

    async def _install(self, request: web.Request) -> web.Response:
        assert self._oauth_flow is not None
        answer = await self._oauth_flow.handle_installation(_browser_request(request))
        return await to_aiohttp_response(answer)

    async def _oauth_redirect(self, request: web.Request) -> web.Response:
        assert self._oauth_flow is not None
        answer = await self._oauth_flow.handle_callback(_browser_request(request))
        return await to_aiohttp_response(answer)

    async def _handle(self, request: web.Request) -> web.Response:
        admitted = await self._edge.admit(request)
        if isinstance(admitted, web.Response):
            return admitted
        return await to_aiohttp_response(await self._app.async_dispatch(admitted))

    async def start(self) -> None:
        runner = web.AppRunner(
            self.web_app(),
            access_log=None,
            logger=HttpServerLog(logging.getLogger("aiohttp.server")),
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, self._host, self._port).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        address = runner.addresses[0]
        self.bound_port = int(address[1])
        log.info("serving Slack requests on %s:%d%s", self._host, self.bound_port, self._path)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def connected(self) -> bool:
        return self._runner is not None


def _browser_request(request: web.Request) -> AsyncBoltRequest:
    """A browser's GET as bolt's flow reads it: the query and the headers (the cookie)."""
    return AsyncBoltRequest(body="", query=request.query_string, headers=dict(request.headers))
