"""The doctor's check of the answer coach: when the operator configured one, one small
request asks its endpoint for its model's JSON, and the report says which part failed. The
key never shows: the client masks it in what an endpoint echoes, and the doctor's redactor
knows it too."""

from __future__ import annotations

import asyncio

from adapters.checks import NETWORK_TIMEOUT, Check
from adapters.coach_transport import AiohttpChatTransport
from adapters.ops.coach_wiring import coach_endpoint
from bot.coach.client import CoachClient
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.settings import Settings, SettingsError

NAME = "coach"


async def check_coach(settings: Settings) -> Check | None:
    """The coach's check; None when no coach is configured (nothing to check)."""
    try:
        endpoint = coach_endpoint(settings)
    except SettingsError as problem:
        return Check(
            NAME, False, str(problem), "set QUIZBOT_COACH_URL and QUIZBOT_COACH_MODEL, or neither"
        )
    if endpoint is None:
        return None
    where = f"{endpoint.model} at {endpoint.host}"
    async with AiohttpChatTransport() as transport:
        client = CoachClient(endpoint, transport)
        try:
            completion = await asyncio.wait_for(
                client.check(), max(NETWORK_TIMEOUT, endpoint.request_timeout)
            )
        except (EndpointUnavailable, TimeoutError) as problem:
            return Check(
                NAME,
                False,
                f"{where} did not answer: {problem or 'it took too long'}",
                "start the endpoint, or correct QUIZBOT_COACH_URL",
            )
        except EndpointRefused as problem:
            return Check(
                NAME,
                False,
                f"{where} refused: {problem}",
                "check QUIZBOT_COACH_MODEL (a model the endpoint serves) and QUIZBOT_COACH_API_KEY",
            )
        except MalformedOutput as problem:
            return Check(
                NAME,
                False,
                f"{where} answered, but not as a chat completion: {problem}",
                "QUIZBOT_COACH_URL must be the OpenAI-compatible base URL, e.g. .../v1",
            )
    return Check(NAME, True, f"{where} answered (JSON asked as {completion.mode.value})")
