"""One answer through the coach: the request carries the prompt and nothing else, a malformed
reply is asked for once more and then given up on, and what comes back is verified."""

from __future__ import annotations

import logging

import pytest

from bot.coach.assessment import Assessment, assess_answer
from bot.coach.client import CoachClient, OutputMode, Usage
from bot.coach.errors import EndpointUnavailable, MalformedOutput
from bot.coach.prompt import messages
from bot.coach.verdict import SCHEMA_NAME, ticks_schema
from bot.coach.verification import DropReason
from bot.kernel.grades import Grade
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, completion, error, ticks
from tests.core.coach.serving_question import (
    ANSWER,
    BATCHING,
    KEY_POINTS,
    KV_CACHE,
    QUESTION,
    SHARDING,
)


async def assess(client: CoachClient, answer: str = ANSWER) -> Assessment:
    return await assess_answer(client, question=QUESTION, key_points=KEY_POINTS, answer=answer)


async def test_the_request_carries_the_prompt_and_the_questions_schema_only(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(ticks((1, SHARDING), (3, BATCHING), (4, "made up")))
    assessment = await assess(client)
    (request,) = server.requests
    assert request.messages == messages(QUESTION, KEY_POINTS, ANSWER)
    assert request.body["response_format"]["json_schema"] == {
        "name": SCHEMA_NAME,
        "schema": ticks_schema(4),
        "strict": True,
    }
    assert assessment.verification.quotes == {1: SHARDING, 3: BATCHING}
    assert assessment.verification.missed == (2, 4)
    assert assessment.verification.dropped_counts() == {DropReason.QUOTE_NOT_IN_ANSWER: 1}
    assert assessment.verification.grade is Grade.PARTLY  # 2 of 4
    assert (assessment.requests, assessment.mode) == (1, OutputMode.JSON_SCHEMA)
    assert assessment.usage == Usage(100, 20, 120)


async def test_a_malformed_reply_is_asked_for_once_more(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(completion("Points 1 and 2 are covered."), ticks((2, KV_CACHE)))
    assessment = await assess(client)
    assert assessment.verification.quotes == {2: KV_CACHE.capitalize()}
    assert assessment.requests == 2
    assert assessment.usage == Usage(200, 40, 240)  # the malformed reply cost tokens too
    assert server.requests[0].body == server.requests[1].body


async def test_a_second_malformed_reply_gives_up_without_guessing(
    server: ScriptedEndpoint, client: CoachClient, caplog: pytest.LogCaptureFixture
) -> None:
    server.queue(completion("Point 1: yes"), completion('{"ticks": [{"point": "one"}]}'))
    with pytest.raises(MalformedOutput):
        await assess(client)
    assert len(server.requests) == 2
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert logged == [
        "coach reply malformed (try 1 of 2): the coach's reply is not JSON",
        "coach reply malformed (try 2 of 2): the coach's reply is not the ticks' shape",
    ]  # what was wrong, never the reply: it quotes the member's answer


async def test_an_unavailable_endpoint_is_left_to_the_callers_backoff(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(error(503, "loading model"), ticks((1, SHARDING)))
    with pytest.raises(EndpointUnavailable):
        await assess(client)
    assert len(server.requests) == 1


async def test_plain_json_from_an_endpoint_without_structured_output_is_verified_alike(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    refused = error(400, "Unrecognized request argument supplied: response_format")
    server.queue(
        refused,
        refused,
        refused,
        completion(f'```json\n{{"ticks": [{{"point": 3, "quote": "{BATCHING}"}}]}}\n```'),
    )
    assessment = await assess(client)
    assert assessment.mode is OutputMode.PROMPT_ONLY
    assert assessment.verification.quotes == {3: BATCHING}
    assert "response_format" not in server.requests[-1].body
