"""The port the coach's client posts through; the runtime plugs in an HTTP client (the core
never touches the network itself), tests a scripted one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class HttpReply:
    """An endpoint's answer: its status, headers (names in lower case) and body."""

    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)


class TransportFailure(Exception):
    """No answer: a timeout or a failed connection. The message names the failure's kind,
    never the request's headers."""


class ChatTransport(Protocol):
    """Posts a JSON body and returns the reply, whatever its status."""

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply: ...
