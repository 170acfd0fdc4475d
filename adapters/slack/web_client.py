"""The Slack Web API client, with one aiohttp session for the life of the platform.

``AsyncWebClient`` built without a session opens a new ``aiohttp.ClientSession``
(a new TCP connection, a TLS handshake with real Slack) for every call. This one
opens a session on its first call and keeps it, so calls reuse keep-alive
connections; :meth:`SharedSessionWebClient.close` closes it, after which the SDK
falls back to a session per call (a send still draining after stop works).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from adapters.slack.errors import TOKEN_REFUSED, error_code


class SharedSessionWebClient(AsyncWebClient):
    """A Slack Web API client that keeps one aiohttp session for all its calls.

    ``on_token_refused`` (set by whoever keeps the client) is told Slack's error code when
    Slack refuses the client's token, whichever call it was, so the client is not used
    again."""

    on_token_refused: Callable[[str], None] | None = None

    async def api_call(self, *args: Any, **kwargs: Any) -> AsyncSlackResponse:
        if self.session is None:  # opened here: a ClientSession needs the running loop
            self.session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.timeout),
                trust_env=self.trust_env_in_session,
            )
        try:
            return await super().api_call(*args, **kwargs)
        except SlackApiError as error:
            code = error_code(error)
            if code in TOKEN_REFUSED and self.on_token_refused is not None:
                self.on_token_refused(code)
            raise

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
