"""Slack HTTP requests at the edge: verified on the raw bytes before anything parses them.

- signature or timestamp wrong or missing: 401;
- signed, but the body is not UTF-8, JSON or a form as its type says: 400;
- signed, well-formed, but of a shape bolt cannot read (a JSON array...): 200 and
  ignored, since Slack retries anything that is not a 2xx.

Refusals are logged as one short line, at most one per 10 seconds, never with a
traceback: a flood of bad requests must not flood the log.
"""

from __future__ import annotations

import logging

from aiohttp import web
from slack_bolt.request.async_request import AsyncBoltRequest

from adapters.ops.log_throttle import ThrottledLog
from adapters.slack.socket_edge import SHAPE_ERRORS
from adapters.slack.verification import RequestVerifier

log = logging.getLogger(__name__)


class SlackHttpEdge:
    """Lets an HTTP request reach bolt only when it is signed and readable; answers the rest."""

    def __init__(self, signing_secret: str) -> None:
        self._verifier = RequestVerifier(signing_secret)
        self._log_refused = ThrottledLog(log, logging.WARNING)

    async def admit(self, request: web.Request) -> AsyncBoltRequest | web.Response:
        """The request for bolt, or the answer it gets without reaching bolt."""
        raw = await request.read()
        problem = self._verifier.problem(raw, request.headers)
        if problem is not None:
            self._log_refused("refused a Slack request from %s: %s", request.remote, problem)
            return web.Response(status=401)
        try:
            return AsyncBoltRequest(
                body=raw.decode("utf-8"),
                query=request.query_string,
                headers=dict(request.headers),
            )
        except ValueError as error:  # not UTF-8, not JSON, a form's payload not JSON
            self._log_refused(
                "refused a signed Slack request: malformed body (%s)", type(error).__name__
            )
            return web.Response(status=400)
        except SHAPE_ERRORS as error:
            log.debug("acknowledged and ignored a Slack request bolt cannot read (%s)", error)
            return web.Response(status=200)
