"""A scripted OpenAI-compatible endpoint: an aiohttp server on port 0 that answers
``POST /v1/chat/completions`` with queued replies and records every request it gets."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from pydantic import SecretStr

from bot.coach.endpoint import DEFAULT_REQUEST_TIMEOUT, CoachEndpoint
from bot.coach.prompt import ChatMessage

MODEL = "scripted-model"
API_KEY = "sk-coach-SECRET-test-4f9a"


@dataclass(frozen=True)
class RecordedRequest:
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[ChatMessage]:
        messages: list[ChatMessage] = self.body["messages"]
        return messages

    @property
    def user_message(self) -> str:
        return next(m["content"] for m in self.messages if m["role"] == "user")


@dataclass(frozen=True)
class ScriptedReply:
    status: int = 200
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


Responder = Callable[[RecordedRequest], ScriptedReply]


def completion_body(content: str | None, *, usage: dict[str, int] | None = None) -> str:
    """A Chat Completions response carrying ``content``."""
    payload: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage is not None:
        payload["usage"] = usage
    return json.dumps(payload)


def completion(
    content: str, *, prompt_tokens: int = 100, completion_tokens: int = 20
) -> ScriptedReply:
    usage = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    return ScriptedReply(body=completion_body(content, usage=usage))


def ticks(*pairs: tuple[int, str]) -> ScriptedReply:
    """A completion whose content is the ticks' JSON."""
    return completion(json.dumps({"ticks": [{"point": p, "quote": q} for p, q in pairs]}))


def error(status: int, message: str, **headers: str) -> ScriptedReply:
    body = json.dumps({"error": {"message": message, "type": "invalid_request_error"}})
    return ScriptedReply(status=status, body=body, headers=headers)


class ScriptedEndpoint:
    """Replies in the order queued (a responder computes its reply from the request); with
    nothing queued it answers 500, which a test then sees."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self._replies: deque[ScriptedReply | Responder] = deque()
        self.base_url = ""

    def queue(self, *replies: ScriptedReply | Responder) -> None:
        self._replies.extend(replies)

    async def _handle(self, request: web.Request) -> web.Response:
        recorded = RecordedRequest(dict(request.headers), await request.json())
        self.requests.append(recorded)
        if not self._replies:
            return web.Response(status=500, text="nothing scripted")
        scripted = self._replies.popleft()
        reply = scripted if isinstance(scripted, ScriptedReply) else scripted(recorded)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        return web.Response(
            status=reply.status,
            text=reply.body,
            headers=reply.headers,
            content_type="application/json",
        )


@asynccontextmanager
async def scripted_endpoint() -> AsyncIterator[ScriptedEndpoint]:
    endpoint = ScriptedEndpoint()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", endpoint._handle)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    endpoint.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1"
    try:
        yield endpoint
    finally:
        await runner.cleanup()


def endpoint_at(
    base_url: str, *, key: str | None = API_KEY, request_timeout: float = DEFAULT_REQUEST_TIMEOUT
) -> CoachEndpoint:
    return CoachEndpoint(
        base_url=base_url,
        model=MODEL,
        api_key=SecretStr(key) if key is not None else None,
        request_timeout=request_timeout,
    )
