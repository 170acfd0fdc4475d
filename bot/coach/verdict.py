"""The coach's reply as the model wrote it: its JSON schema, and parsing it into proposed ticks.

Only the shape is checked here (``{"ticks": [{"point": int, "quote": str}]}``); whether a tick
stands is :mod:`bot.coach.verification`'s question. Anything else is :class:`MalformedOutput`:
the JSON is never searched for in prose nor repaired.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from bot.coach.errors import MalformedOutput

SCHEMA_NAME = "key_point_ticks"
MAX_TICKS = 64  # far above any question's key points: more is a model running on
_FENCED = re.compile(r"\A```(?:json)?\s*\n(?P<body>.*)\n\s*```\Z", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ProposedTick:
    """A key point the model says the answer covers, with its quote, not yet verified."""

    point: int
    quote: str


# the reply quotes the answer: member data, kept out of error messages and their logs
class _Tick(BaseModel):
    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    point: StrictInt
    quote: StrictStr


class _Reply(BaseModel):
    # a model's "reason" beside the ticks changes nothing
    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    ticks: list[_Tick] = Field(max_length=MAX_TICKS)


def ticks_schema(key_points: int) -> dict[str, Any]:
    """The reply's JSON schema for a question of ``key_points`` points, as strict structured
    output takes it (every property required, no others)."""
    tick = {
        "type": "object",
        "properties": {
            "point": {"type": "integer", "enum": list(range(1, key_points + 1))},
            "quote": {"type": "string"},
        },
        "required": ["point", "quote"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"ticks": {"type": "array", "items": tick}},
        "required": ["ticks"],
        "additionalProperties": False,
    }


def parse_ticks(content: str) -> tuple[ProposedTick, ...]:
    """The ticks of a reply that is exactly the JSON object (a Markdown code fence around it
    allowed); raises :class:`MalformedOutput` otherwise."""
    text = content.strip()
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group("body")
    try:
        reply = _Reply.model_validate_json(text)
    except ValidationError as error:
        kind = "not JSON" if _is_not_json(text) else "not the ticks' shape"
        raise MalformedOutput(f"the coach's reply is {kind}") from error
    return tuple(ProposedTick(tick.point, tick.quote) for tick in reply.ticks)


def _is_not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False
