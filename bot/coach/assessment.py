"""One answer through the coach: the prompt, the request, the reply's ticks (a malformed reply
is asked for once more, then given up on) and the verification of every tick."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.coach.client import CoachClient, OutputMode, Usage
from bot.coach.errors import MalformedOutput
from bot.coach.prompt import messages
from bot.coach.verdict import SCHEMA_NAME, parse_ticks, ticks_schema
from bot.coach.verification import Verification, verify

log = logging.getLogger(__name__)

ATTEMPTS = 2  # a malformed reply is retried once, then dropped


@dataclass(frozen=True, slots=True)
class Assessment:
    """What stands of the coach's reply, what the requests cost (every attempt's tokens, the
    malformed ones' too) and how the JSON was asked for."""

    verification: Verification
    usage: Usage
    requests: int
    mode: OutputMode


async def assess_answer(
    client: CoachClient, *, question: str, key_points: Sequence[str], answer: str
) -> Assessment:
    """The coach's verified ticks for ``answer``. Raises :class:`MalformedOutput` after
    :data:`ATTEMPTS` malformed replies, and the client's errors as they come."""
    prompt = messages(question, key_points, answer)
    schema = ticks_schema(len(key_points))
    spent = Usage(0, 0, 0)
    for attempt in range(1, ATTEMPTS + 1):
        completion = await client.complete(prompt, schema=schema, schema_name=SCHEMA_NAME)
        spent = _added(spent, completion.usage)
        try:
            proposed = parse_ticks(completion.content)
        except MalformedOutput as malformed:
            log.warning("coach reply malformed (try %d of %d): %s", attempt, ATTEMPTS, malformed)
            if attempt == ATTEMPTS:
                raise
            continue
        verification = verify(proposed, question=question, key_points=key_points, answer=answer)
        return Assessment(verification, spent, attempt, completion.mode)
    raise AssertionError("unreachable: the last attempt returns or raises")


def _added(spent: Usage, usage: Usage | None) -> Usage:
    if usage is None:
        return spent
    return Usage(
        spent.prompt_tokens + usage.prompt_tokens,
        spent.completion_tokens + usage.completion_tokens,
        spent.total_tokens + usage.total_tokens,
    )
