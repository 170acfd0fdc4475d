"""The reply's shape: exactly ``{"ticks": [{"point": int, "quote": str}]}``, else malformed."""

from __future__ import annotations

import json

import pytest

from bot.coach.errors import MalformedOutput
from bot.coach.verdict import MAX_TICKS, ProposedTick, parse_ticks, ticks_schema


def test_ticks_are_read_in_the_replys_order() -> None:
    reply = '{"ticks": [{"point": 2, "quote": "b"}, {"point": 1, "quote": "a"}]}'
    assert parse_ticks(reply) == (ProposedTick(2, "b"), ProposedTick(1, "a"))
    assert parse_ticks('{"ticks": []}') == ()


def test_a_code_fence_around_the_json_and_keys_beside_the_ticks_are_no_harm() -> None:
    reply = '```json\n{"ticks": [{"point": 1, "quote": "a", "why": "x"}], "note": "n"}\n```'
    assert parse_ticks(reply) == (ProposedTick(1, "a"),)


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("The answer covers point 1.", "not JSON"),
        ('Here you go: {"ticks": []}', "not JSON"),  # never searched for in prose
        ('{"ticks": [{"point": 1, "quote": "a"}', "not JSON"),
        ("[]", "not the ticks' shape"),
        ('{"covered": [1, 2]}', "not the ticks' shape"),
        ('{"ticks": [{"point": "1", "quote": "a"}]}', "not the ticks' shape"),
        ('{"ticks": [{"point": 1.5, "quote": "a"}]}', "not the ticks' shape"),
        ('{"ticks": [{"point": true, "quote": "a"}]}', "not the ticks' shape"),
        ('{"ticks": [{"point": 1, "quote": 7}]}', "not the ticks' shape"),
        ('{"ticks": [{"point": 1}]}', "not the ticks' shape"),
        ('{"ticks": {"point": 1, "quote": "a"}}', "not the ticks' shape"),
    ],
)
def test_anything_else_is_malformed(reply: str, kind: str) -> None:
    with pytest.raises(MalformedOutput, match=kind):
        parse_ticks(reply)


def test_a_reply_that_runs_on_is_malformed() -> None:
    reply = json.dumps({"ticks": [{"point": 1, "quote": "a"}] * (MAX_TICKS + 1)})
    with pytest.raises(MalformedOutput):
        parse_ticks(reply)


def test_a_malformed_replys_error_does_not_quote_the_reply() -> None:
    with pytest.raises(MalformedOutput) as malformed:
        parse_ticks('{"ticks": [{"point": "my secret answer text", "quote": "a"}]}')
    assert "my secret answer text" not in str(malformed.value)
    assert "my secret answer text" not in str(malformed.value.__cause__)


def test_the_schema_is_strict_and_names_only_the_questions_points() -> None:
    schema = ticks_schema(3)
    tick = schema["properties"]["ticks"]["items"]
    assert tick["properties"]["point"] == {"type": "integer", "enum": [1, 2, 3]}
    assert tick["required"] == ["point", "quote"] and tick["additionalProperties"] is False
    assert schema["required"] == ["ticks"] and schema["additionalProperties"] is False
