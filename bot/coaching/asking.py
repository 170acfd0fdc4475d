"""One reading of an answer by the coach under the answer's deadline, as the channel's and
practice's readers both make it: a failure is retried by the outbox while attempts and time
are left (:class:`CoachRetry`), anything else is given up (None); what the reply cost and
what the verification dropped are counted."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime

from bot.coach.assessment import Assessment, assess_answer
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.coaching.metrics import CoachMetrics
from bot.coaching.retry import CoachRetry
from bot.coaching.setup import CoachSetup

log = logging.getLogger(__name__)


async def ask_the_coach(
    setup: CoachSetup,
    metrics: CoachMetrics,
    *,
    question: str,
    key_points: Sequence[str],
    answer: str,
    answered_at: datetime,
    now: datetime,
    attempts: int,
    what: str,
) -> Assessment | None:
    """The coach's verified reading of ``answer``, or None once it gave up on it (``what``
    names the answer in the log line). Raises :class:`CoachRetry` while the outbox's
    ``attempts`` and the deadline leave room for another try."""
    left = setup.endpoint.deadline - (now - answered_at).total_seconds()
    try:
        if left <= 0:
            raise EndpointUnavailable("the coach's deadline for this answer passed")
        result = await asyncio.wait_for(
            assess_answer(setup.client, question=question, key_points=key_points, answer=answer),
            timeout=left,
        )
    except (EndpointUnavailable, TimeoutError) as problem:
        metrics.coach_request("failed")
        if attempts < setup.attempts and left > 0:
            raise CoachRetry(str(problem) or "the coach took too long") from None
        log.warning("the coach is unavailable for %s: %s", what, problem)
        return None
    except (EndpointRefused, MalformedOutput) as problem:
        metrics.coach_request("refused" if isinstance(problem, EndpointRefused) else "malformed")
        log.warning("the coach gave up on %s: %s", what, problem)
        return None
    metrics.coach_request("answered")
    metrics.coach_tokens(result.usage.total_tokens)
    for reason, count in result.verification.dropped_counts().items():
        metrics.coach_dropped(reason.value, count)
    return result
