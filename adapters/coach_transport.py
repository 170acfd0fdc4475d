"""The coach's HTTP client: the core's :class:`~bot.coach.transport.ChatTransport` on aiohttp.

Nothing here logs: the request's headers carry the endpoint's key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import aiohttp

from bot.coach.transport import HttpReply, TransportFailure

MAX_REPLY_BYTES = 1 << 20  # a completion of a few hundred tokens is a few kilobytes


class AiohttpChatTransport:
    """Posts JSON with one :class:`aiohttp.ClientSession`, open between ``async with`` and
    its end."""

    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> AiohttpChatTransport:
        self._session = aiohttp.ClientSession(raise_for_status=False)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply:
        if self._session is None:
            raise RuntimeError("use the transport inside `async with`")
        timeout = aiohttp.ClientTimeout(total=total_timeout, connect=connect_timeout)
        try:
            async with self._session.post(
                url,
                data=json.dumps(body, ensure_ascii=False).encode(),
                headers={**headers, "Content-Type": "application/json"},
                timeout=timeout,
            ) as response:
                return HttpReply(
                    response.status,
                    await _body_of(response),
                    {name.lower(): value for name, value in response.headers.items()},
                )
        except TimeoutError:
            raise TransportFailure(f"no answer within {total_timeout:g} s") from None
        except aiohttp.ClientError as error:
            # the class name only: some of aiohttp's messages quote the request
            raise TransportFailure(f"connection failed ({type(error).__name__})") from None


async def _body_of(response: aiohttp.ClientResponse) -> bytes:
    """The reply's body, cut at :data:`MAX_REPLY_BYTES` (a cut reply is then no JSON)."""
    body = bytearray()
    async for chunk in response.content.iter_chunked(64 * 1024):
        body += chunk
        if len(body) >= MAX_REPLY_BYTES:
            break
    return bytes(body[:MAX_REPLY_BYTES])
