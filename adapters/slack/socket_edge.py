"""Socket Mode envelopes at the edge: each one that needs an acknowledgement gets one.

Slack delivers an envelope again until it is acknowledged. The SDK gives up
(with an ERROR traceback and no acknowledgement) on an envelope whose payload
is not an object, and bolt on a payload it cannot even read; both are
acknowledged here and ignored with a debug line. What bolt does read goes
through the listeners' ``admit`` middleware, which acknowledges the rest.
A frame that is no JSON object at all (no envelope, nothing to acknowledge) is
dropped with one throttled line, where the SDK logged a traceback for each.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.adapter.socket_mode.async_internals import (
    run_async_bolt_app,
    send_async_response,
)
from slack_bolt.app.async_app import AsyncApp
from slack_bolt.response import BoltResponse
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.async_client import AsyncBaseSocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse

from adapters.ops.log_throttle import ThrottledLog

log = logging.getLogger(__name__)

# What bolt raises while building a request from a payload of an unexpected shape.
SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ValueError)


class EdgeSocketModeClient(SocketModeClient):
    """The SDK's Socket Mode client, except that a frame that is no JSON object is dropped
    with one throttled line instead of a traceback per frame."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._log_unreadable = ThrottledLog(log, logging.WARNING)

    async def enqueue_message(self, message: str) -> None:
        if not message.strip():
            return  # nothing in it (the SDK would read it as {} and do nothing)
        if not _json_object(message):
            self._log_unreadable(
                "ignored a Socket Mode frame that is not a JSON object (%d characters)",
                len(message),
            )
            return
        await super().enqueue_message(message)


def _json_object(text: str) -> bool:
    if not text.startswith("{"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


class EdgeSocketModeHandler(AsyncSocketModeHandler):
    """Socket Mode handler that acknowledges the envelopes the SDK or bolt cannot read."""

    def __init__(self, app: AsyncApp, app_token: str) -> None:
        # bolt's own constructor, with the edge's client instead of the SDK's
        self.app = app
        self.app_token = app_token
        self.client = EdgeSocketModeClient(
            app_token=app_token, logger=app.logger, web_client=app.client, ping_interval=10
        )
        self.client.socket_mode_request_listeners.append(self.handle)
        # Runs before the SDK turns the message into a request.
        self.client.message_listeners.insert(0, self._acknowledge_unreadable)

    async def _acknowledge_unreadable(
        self, client: AsyncBaseSocketModeClient, message: dict[Any, Any], raw_message: str | None
    ) -> None:
        envelope_id = message.get("envelope_id")
        if not isinstance(envelope_id, str) or isinstance(message.get("payload"), dict | str):
            return
        log.debug(
            "acknowledged and ignored a %s envelope without a payload object", message.get("type")
        )
        await client.send_socket_mode_response(SocketModeResponse(envelope_id=envelope_id))
        # Without a payload the SDK makes no request of it (instead of raising).
        message.pop("payload", None)

    async def handle(self, client: AsyncBaseSocketModeClient, req: SocketModeRequest) -> None:
        started = time.time()
        try:
            response = await run_async_bolt_app(self.app, req)
        except SHAPE_ERRORS as error:
            log.debug(
                "acknowledged and ignored a %s envelope bolt cannot read (%s)",
                req.type,
                type(error).__name__,
            )
            response = BoltResponse(status=200, body="")
        await send_async_response(client, req, response, started)
