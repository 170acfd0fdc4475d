"""One answer through the coach against a real model: llama-cpp-python's server with
SmolLM2-135M-Instruct (skipped, naming what is missing, where they are not installed).

A 135M model's reply is not predictable, so only what must hold whatever it says is asserted:
the request reaches the server and costs tokens, the client steps down to the structured form
that server takes, and then either every tick that stands quotes the answer and names a key
point, shown on the member's card with the points not found, or a reply that is not the ticks'
JSON is asked for once more and then dropped, ticking nothing. SmolLM2-135M takes the second
path today: held to the schema, it writes its first quote on until the token limit cuts it.

The cards are the product's (``bot.coaching.cards``): the member's card with each tick that
stands and the points not found, or "the coach is unavailable".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.assessment import ATTEMPTS, assess_answer
from bot.coach.client import CoachClient, OutputMode
from bot.coach.endpoint import CoachEndpoint
from bot.coach.errors import MalformedOutput
from bot.coach.transport import HttpReply
from bot.coach.wording import normalised
from bot.coaching.cards import coach_card, unavailable_card
from questions.loader import bundled_packs_dir, load_pack
from tests.integration.llama_server import MODEL_ALIAS

QUESTION_ID = "attention-complexity"
ANSWER = (
    "Every token attends to every other token, so the time is N squared times D and the N by N "
    "score matrix takes quadratic memory. Longformer-style sparse attention lets each token "
    "attend only to a local window of positions."
)
# enough for the ticks' JSON of a short answer; a model that rambles on inside a quote is cut
# here, which keeps the test within its time (two attempts at ~10 tokens a second on a busy CPU)
MAX_OUTPUT_TOKENS = 128
REQUEST_TIMEOUT = 120.0


@dataclass
class RecordingTransport:
    """The real transport, keeping every request's body and the server's reply."""

    inner: AiohttpChatTransport
    exchanges: list[tuple[Mapping[str, Any], HttpReply]] = field(default_factory=list)

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply:
        reply = await self.inner.post_json(
            url,
            body,
            headers=headers,
            connect_timeout=connect_timeout,
            total_timeout=total_timeout,
        )
        self.exchanges.append((body, reply))
        return reply


async def test_an_answer_goes_through_the_coach_on_a_real_model(llama_cpp_url: str) -> None:
    pack = load_pack(bundled_packs_dir() / "ai-infra.yaml")
    question = next(question for question in pack.questions if question.id == QUESTION_ID)
    key_points = question.key_points
    endpoint = CoachEndpoint(
        base_url=llama_cpp_url,
        model=MODEL_ALIAS,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        request_timeout=REQUEST_TIMEOUT,
    )
    async with AiohttpChatTransport() as transport:
        recording = RecordingTransport(transport)
        client = CoachClient(endpoint, recording)
        try:
            assessment = await assess_answer(
                client, question=question.question, key_points=key_points, answer=ANSWER
            )
        except MalformedOutput:
            assessment = None

    # the server takes no json_schema (a 500 that names response_format): the client asks
    # for a JSON object held to the schema instead, and stays there
    (refused_body, refused), *answered = recording.exchanges
    assert refused_body["response_format"]["type"] == "json_schema"
    assert refused.status == 500 and b"response_format" in refused.body
    assert client.mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    assert answered, "no request after the step down"
    for body, reply in answered:
        assert body["response_format"] == {"type": "json_object", "schema": _schema_of(body)}
        assert reply.status == 200, reply.body[:500]
        assert json.loads(reply.body)["usage"]["completion_tokens"] > 0

    if assessment is None:
        # not the ticks' JSON (SmolLM2-135M runs on inside its first quote until it is cut):
        # asked once more, then dropped, never guessed at; the member keeps the manual form
        assert len(answered) == ATTEMPTS
        shown = unavailable_card(1).plain_text()
        assert shown.startswith("The coach is unavailable") and "`/quiz grade`" in shown
        return
    assert assessment.mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    assert assessment.usage.completion_tokens > 0 and assessment.usage.prompt_tokens > 0
    assert assessment.requests == len(answered)
    verification = assessment.verification
    for tick in verification.ticks:
        assert 1 <= tick.point <= len(key_points)
        assert normalised(tick.quote) in normalised(ANSWER)
    shown = coach_card(
        assessment_id=1,
        number=1,
        key_points=key_points,
        ticks=verification.ticks,
        dropped=len(verification.dropped),
        model=MODEL_ALIAS,
    ).plain_text()
    for tick in verification.ticks:
        assert " ".join(tick.quote.split())[:100] in shown
    for point in verification.missed:
        assert f"✗ {point}. {key_points[point - 1]}" in shown
    assert f"proposes {verification.grade.word}" in shown


def _schema_of(body: Mapping[str, Any]) -> Any:
    schema = body["response_format"].get("schema")
    assert isinstance(schema, dict) and schema["required"] == ["ticks"]
    return schema
