"""An OpenAI-compatible Chat Completions client for the coach.

``POST {base}/chat/completions`` at temperature 0 with bounded output, asking for structured
output (``response_format`` ``json_schema``, strict). An endpoint that refuses that (an HTTP 400,
422 or 500 that names it) is asked for a JSON object with the schema beside it (llama-cpp-python's
server takes that form and holds the model to the schema), then for a plain JSON object, then
gets the prompt's own description of the JSON only; the client remembers how far it had to
step down.
Errors are typed: :class:`EndpointUnavailable` (try later; a 429's Retry-After is kept for the
caller), :class:`EndpointRefused` (the operator must change something), :class:`MalformedOutput`
(a reply that is not a completion).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.coach.endpoint import CoachEndpoint
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.coach.prompt import ChatMessage
from bot.coach.transport import ChatTransport, HttpReply, TransportFailure

log = logging.getLogger(__name__)

ERROR_EXCERPT = 200  # characters of an endpoint's error body kept in the error's message
_REFUSALS_OF_THE_FORMAT = ("response_format", "json_schema", "json_object")
_CHECK_MESSAGES: list[ChatMessage] = [
    {"role": "system", "content": "Reply with JSON only."},
    {"role": "user", "content": 'Reply with this JSON object: {"ok": true}'},
]
_CHECK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}
_CHECK_MAX_TOKENS = 16


class OutputMode(StrEnum):
    """How the reply's JSON is asked for, most structured first."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT_WITH_SCHEMA = "json_object_with_schema"
    JSON_OBJECT = "json_object"
    PROMPT_ONLY = "prompt_only"

    def fallback(self) -> OutputMode | None:
        """The next less structured mode; None past the last."""
        modes = list(OutputMode)
        index = modes.index(self)
        return modes[index + 1] if index + 1 < len(modes) else None


@dataclass(frozen=True, slots=True)
class Usage:
    """The tokens a request cost, as the endpoint counted them."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


@dataclass(frozen=True, slots=True)
class Completion:
    """The model's reply text, its cost (None when the endpoint reports none) and the mode
    that was asked for."""

    content: str
    usage: Usage | None
    mode: OutputMode


class CoachClient:
    """Asks one endpoint's model for completions through ``transport``."""

    def __init__(
        self,
        endpoint: CoachEndpoint,
        transport: ChatTransport,
        *,
        mode: OutputMode = OutputMode.JSON_SCHEMA,
    ) -> None:
        self._endpoint = endpoint
        self._transport = transport
        self._mode = mode

    @property
    def mode(self) -> OutputMode:
        """How the next request asks for JSON (after any step down so far)."""
        return self._mode

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        schema_name: str,
        max_tokens: int | None = None,
    ) -> Completion:
        """The model's reply to ``messages``, asked to follow ``schema``."""
        while True:
            body = self._body(messages, schema, schema_name, max_tokens)
            reply = await self._post(body)
            if reply.status < 300:
                return self._completion(reply)
            next_mode = self._mode.fallback()
            if next_mode is not None and _refuses_the_format(reply):
                log.info(
                    "coach endpoint %s refused response_format %s; asking with %s",
                    self._endpoint.host,
                    self._mode,
                    next_mode,
                )
                self._mode = next_mode
                continue
            raise self._error(reply)

    async def check(self) -> Completion:
        """One small request, for ``quizbot doctor``: the endpoint answers and knows the
        model. Raises as :meth:`complete` does."""
        return await self.complete(
            _CHECK_MESSAGES,
            schema=_CHECK_SCHEMA,
            schema_name="check",
            max_tokens=_CHECK_MAX_TOKENS,
        )

    def _body(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        schema_name: str,
        max_tokens: int | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._endpoint.model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": max_tokens or self._endpoint.max_output_tokens,
            "stream": False,
        }
        if self._mode is OutputMode.JSON_SCHEMA:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": dict(schema), "strict": True},
            }
        elif self._mode is OutputMode.JSON_OBJECT_WITH_SCHEMA:
            body["response_format"] = {"type": "json_object", "schema": dict(schema)}
        elif self._mode is OutputMode.JSON_OBJECT:
            body["response_format"] = {"type": "json_object"}
        return body

    async def _post(self, body: Mapping[str, Any]) -> HttpReply:
        endpoint = self._endpoint
        try:
            return await self._transport.post_json(
                endpoint.chat_completions_url,
                body,
                headers=endpoint.authorization(),
                connect_timeout=endpoint.connect_timeout,
                total_timeout=endpoint.request_timeout,
            )
        except TransportFailure as failure:
            message = endpoint.redact(str(failure))
            log.warning("coach endpoint %s did not answer: %s", endpoint.host, message)
            raise EndpointUnavailable(f"the coach endpoint {endpoint.host}: {message}") from None

    def _completion(self, reply: HttpReply) -> Completion:
        try:
            payload = json.loads(reply.body)
            message = payload["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise MalformedOutput("the coach endpoint's reply is not a chat completion") from None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            # a structured-output refusal ("refusal": ...) or a reply without text
            raise MalformedOutput("the coach endpoint's reply has no text")
        return Completion(content, _usage(payload.get("usage")), self._mode)

    def _error(self, reply: HttpReply) -> Exception:
        host = self._endpoint.host
        excerpt = self._endpoint.redact(_excerpt(reply.body))
        if reply.status == 429 or reply.status == 408 or reply.status >= 500:
            log.warning("coach endpoint %s answered %s", host, reply.status)
            return EndpointUnavailable(
                f"the coach endpoint {host} answered {reply.status}: {excerpt}",
                retry_after=_retry_after(reply.headers),
            )
        log.warning("coach endpoint %s refused the request: %s", host, reply.status)
        return EndpointRefused(f"the coach endpoint {host} answered {reply.status}: {excerpt}")


def _refuses_the_format(reply: HttpReply) -> bool:
    # llama-cpp-python's server answers an unknown response_format type with a 500 that
    # names it: a refusal of the mode, not an outage
    if reply.status not in (400, 422, 500):
        return False
    text = reply.body.decode(errors="replace").lower()
    return any(name in text for name in _REFUSALS_OF_THE_FORMAT)


def _usage(raw: object) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    counts = [raw.get(name) for name in ("prompt_tokens", "completion_tokens", "total_tokens")]
    if not all(isinstance(count, int) and count >= 0 for count in counts[:2]):
        return None
    prompt, completion, total = (count if isinstance(count, int) else 0 for count in counts)
    return Usage(prompt, completion, total or prompt + completion)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """The Retry-After header's seconds (its HTTP-date form is not worth a clock here)."""
    try:
        seconds = float(headers.get("retry-after", ""))
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _excerpt(body: bytes) -> str:
    text = " ".join(body.decode(errors="replace").split())
    return text[:ERROR_EXCERPT] + ("…" if len(text) > ERROR_EXCERPT else "")
