"""The Chat Completions client against a scripted endpoint: the request's shape, the steps down
from structured output, the typed errors and the tokens spent."""

from __future__ import annotations

import json

import pytest

from adapters.coach_transport import MAX_REPLY_BYTES, AiohttpChatTransport
from bot.coach.client import CoachClient, Completion, OutputMode, Usage
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.coach.prompt import ChatMessage
from tests.core.coach.scripted_endpoint import (
    API_KEY,
    MODEL,
    ScriptedEndpoint,
    ScriptedReply,
    completion,
    completion_body,
    endpoint_at,
    error,
)

MESSAGES: list[ChatMessage] = [
    {"role": "system", "content": "rules"},
    {"role": "user", "content": "data"},
]
SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}
FORMAT_REFUSED = "Invalid parameter: 'response_format' of type 'json_schema' is not supported"


async def ask(client: CoachClient) -> Completion:
    return await client.complete(MESSAGES, schema=SCHEMA, schema_name="shape")


async def test_a_request_asks_the_model_for_strict_structured_output_at_temperature_0(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(completion('{"ticks": []}', prompt_tokens=120, completion_tokens=8))
    answered = await ask(client)
    assert answered == Completion('{"ticks": []}', Usage(120, 8, 128), OutputMode.JSON_SCHEMA)
    (request,) = server.requests
    assert request.body == {
        "model": MODEL,
        "messages": MESSAGES,
        "temperature": 0,
        "max_tokens": 512,
        "stream": False,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "shape", "schema": SCHEMA, "strict": True},
        },
    }
    assert request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert request.headers["Content-Type"] == "application/json"


async def test_without_a_key_no_authorization_header_is_sent(
    server: ScriptedEndpoint, transport: AiohttpChatTransport
) -> None:
    server.queue(completion("{}"))
    await ask(CoachClient(endpoint_at(server.base_url, key=None), transport))
    assert "Authorization" not in server.requests[0].headers


async def test_an_endpoint_that_refuses_the_schema_is_asked_for_a_json_object_then_plain_json(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(
        error(400, FORMAT_REFUSED),
        error(400, "Unrecognized request argument supplied: response_format.schema"),
        error(422, "response_format: json_object is not supported"),
        completion('{"ticks": []}'),
        completion('{"ticks": []}'),
    )
    answered = await ask(client)
    assert answered.mode is OutputMode.PROMPT_ONLY
    formats = [r.body.get("response_format") for r in server.requests]
    assert formats == [
        {
            "type": "json_schema",
            "json_schema": {"name": "shape", "schema": SCHEMA, "strict": True},
        },
        {"type": "json_object", "schema": SCHEMA},
        {"type": "json_object"},
        None,
    ]
    await ask(client)  # the client remembers: no more refused requests
    assert "response_format" not in server.requests[4].body
    assert client.mode is OutputMode.PROMPT_ONLY


async def test_llama_cpp_pythons_refusal_of_json_schema_leads_to_its_own_form(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    # its server's request model knows the types "text" and "json_object" only
    refusal = (
        '{"detail": [{"type": "literal_error", "loc": ["body", "response_format", "type"],'
        ' "msg": "Input should be \'text\' or \'json_object\'", "input": "json_schema"}]}'
    )
    server.queue(ScriptedReply(status=422, body=refusal), completion('{"ticks": []}'))
    answered = await ask(client)
    assert answered.mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    assert server.requests[1].body["response_format"] == {"type": "json_object", "schema": SCHEMA}


async def test_a_server_error_that_names_response_format_is_a_refusal_of_the_mode(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    # llama-cpp-python 0.3.x answers the json_schema type with a 500 carrying its validation error
    refusal = json.dumps(
        {
            "error": {
                "message": "1 validation error: {'type': 'literal_error', 'loc': ('body', "
                "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}",
                "type": "internal_server_error",
            }
        }
    )
    server.queue(ScriptedReply(status=500, body=refusal), completion('{"ticks": []}'))
    answered = await ask(client)
    assert answered.mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    assert server.requests[1].body["response_format"] == {"type": "json_object", "schema": SCHEMA}


async def test_a_refusal_that_names_no_response_format_is_not_a_step_down(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(error(400, "max_tokens is too large"))
    with pytest.raises(EndpointRefused, match=r"400: .*max_tokens is too large"):
        await ask(client)
    assert len(server.requests) == 1 and client.mode is OutputMode.JSON_SCHEMA


async def test_plain_json_refused_too_is_refused(
    server: ScriptedEndpoint, transport: AiohttpChatTransport
) -> None:
    client = CoachClient(endpoint_at(server.base_url), transport, mode=OutputMode.PROMPT_ONLY)
    server.queue(error(400, FORMAT_REFUSED))
    with pytest.raises(EndpointRefused):
        await ask(client)
    assert len(server.requests) == 1


@pytest.mark.parametrize("status", [401, 403, 404, 413])
async def test_other_client_errors_are_refusals(
    server: ScriptedEndpoint, client: CoachClient, status: int
) -> None:
    server.queue(error(status, "The model `scripted-model` does not exist"))
    with pytest.raises(EndpointRefused, match=f"127.0.0.1:\\d+ answered {status}"):
        await ask(client)


@pytest.mark.parametrize("status", [500, 502, 503, 408])
async def test_server_errors_are_unavailability(
    server: ScriptedEndpoint, client: CoachClient, status: int
) -> None:
    server.queue(error(status, "overloaded"))
    with pytest.raises(EndpointUnavailable, match=str(status)) as failed:
        await ask(client)
    assert failed.value.retry_after is None


@pytest.mark.parametrize(("header", "retry_after"), [("7", 7.0), ("0.5", 0.5), ("soon", None)])
async def test_a_rate_limit_is_unavailability_with_the_endpoints_wait(
    server: ScriptedEndpoint, client: CoachClient, header: str, retry_after: float | None
) -> None:
    server.queue(error(429, "Rate limit reached", **{"Retry-After": header}))
    with pytest.raises(EndpointUnavailable) as failed:
        await ask(client)
    assert failed.value.retry_after == retry_after


async def test_a_slow_endpoint_is_unavailable_after_the_request_timeout(
    server: ScriptedEndpoint, transport: AiohttpChatTransport
) -> None:
    client = CoachClient(endpoint_at(server.base_url, request_timeout=0.2), transport)
    server.queue(ScriptedReply(body=completion_body("{}"), delay=5))
    with pytest.raises(EndpointUnavailable, match=r"no answer within 0\.2 s"):
        await ask(client)


async def test_a_closed_port_is_unavailable(transport: AiohttpChatTransport) -> None:
    client = CoachClient(endpoint_at("http://127.0.0.1:9/v1"), transport)
    with pytest.raises(EndpointUnavailable, match="connection failed"):
        await ask(client)


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        '{"choices": []}',
        '{"error": "nope"}',
        completion_body(None),  # a structured-output refusal carries no content
    ],
)
async def test_a_reply_that_is_no_completion_is_malformed(
    server: ScriptedEndpoint, client: CoachClient, body: str
) -> None:
    server.queue(ScriptedReply(body=body))
    with pytest.raises(MalformedOutput):
        await ask(client)


@pytest.mark.parametrize(
    ("usage", "counted"),
    [
        (None, None),
        ({"prompt_tokens": 10, "completion_tokens": 5}, Usage(10, 5, 15)),
        ({"prompt_tokens": "10", "completion_tokens": 5, "total_tokens": 15}, None),
    ],
)
async def test_usage_is_read_when_the_endpoint_reports_it(
    server: ScriptedEndpoint,
    client: CoachClient,
    usage: dict[str, int] | None,
    counted: Usage | None,
) -> None:
    server.queue(ScriptedReply(body=completion_body("{}", usage=usage)))
    assert (await ask(client)).usage == counted


async def test_the_doctors_check_is_one_small_request(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(completion('{"ok": true}', prompt_tokens=20, completion_tokens=5))
    checked = await client.check()
    assert checked.content == '{"ok": true}' and checked.mode is OutputMode.JSON_SCHEMA
    (request,) = server.requests
    assert request.body["max_tokens"] == 16 and request.body["model"] == MODEL
    assert request.body["response_format"]["json_schema"]["name"] == "check"


async def test_a_long_reply_is_read_whole(server: ScriptedEndpoint, client: CoachClient) -> None:
    long_content = json.dumps({"ticks": [{"point": 1, "quote": "word " * 40_000}]})
    server.queue(completion(long_content))
    assert (await ask(client)).content == long_content


async def test_a_reply_past_the_size_bound_is_malformed(
    server: ScriptedEndpoint, client: CoachClient
) -> None:
    server.queue(completion("x" * MAX_REPLY_BYTES))
    with pytest.raises(MalformedOutput, match="not a chat completion"):
        await ask(client)
