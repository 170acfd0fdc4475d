"""The API key leaves the bot only in the Authorization header: never in the endpoint's repr,
str or JSON, an error's message or a log record."""

from __future__ import annotations

import logging

import pytest
from pydantic import SecretStr, ValidationError

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.client import CoachClient
from bot.coach.endpoint import CoachEndpoint
from bot.coach.errors import CoachError
from tests.core.coach.scripted_endpoint import (
    API_KEY,
    ScriptedEndpoint,
    endpoint_at,
    error,
)


def test_the_endpoint_value_never_shows_the_key(server: ScriptedEndpoint) -> None:
    endpoint = endpoint_at(server.base_url)
    shown = [repr(endpoint), str(endpoint), endpoint.model_dump_json(), str(endpoint.model_dump())]
    assert all(API_KEY not in text for text in shown)
    assert "**********" in repr(endpoint)  # masked, not missing: the test could not pass idly
    assert endpoint.authorization() == {"Authorization": f"Bearer {API_KEY}"}


def test_a_refused_setting_does_not_show_the_key() -> None:
    with pytest.raises(ValidationError) as refused:
        CoachEndpoint(base_url="nowhere", model="m", api_key=SecretStr(API_KEY), deadline=-1)
    assert API_KEY not in str(refused.value)
    assert "deadline" in str(refused.value)


@pytest.mark.parametrize("status", [401, 500])
async def test_an_error_body_that_echoes_the_key_is_reported_without_it(
    server: ScriptedEndpoint,
    client: CoachClient,
    caplog: pytest.LogCaptureFixture,
    status: int,
) -> None:
    caplog.set_level(logging.DEBUG)
    server.queue(error(status, f"Incorrect API key provided: {API_KEY}."))
    with pytest.raises(CoachError) as failed:
        await client.check()
    assert str(status) in str(failed.value)
    assert API_KEY not in str(failed.value) and API_KEY not in repr(failed.value)
    assert caplog.records  # the failure was logged ...
    assert all(API_KEY not in record.getMessage() for record in caplog.records)  # ... without it
    assert server.requests[0].headers["Authorization"] == f"Bearer {API_KEY}"


async def test_an_unreachable_endpoint_is_reported_without_the_key(
    transport: AiohttpChatTransport, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = CoachClient(endpoint_at("http://127.0.0.1:9/v1"), transport)  # the discard port
    with pytest.raises(CoachError) as failed:
        await client.check()
    assert "127.0.0.1:9" in str(failed.value)
    texts = [str(failed.value), repr(failed.value), *(r.getMessage() for r in caplog.records)]
    assert caplog.records
    assert all(API_KEY not in text for text in texts)
