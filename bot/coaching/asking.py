"""What the channel's and practice's readers both do before and while asking the coach: a
reply cached for the same answer, key points and model is used without a request
(:func:`cached_reading`); no request once a daily budget is spent (:func:`budget_spent`);
and one reading under the answer's deadline (:func:`ask_the_coach`): a failure is retried
by the outbox while attempts and time are left (:class:`CoachRetry`), anything else is
given up (None); what the reply cost and what the verification dropped are counted."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime

from bot.coach.assessment import Assessment, assess_answer
from bot.coach.budget import budget_day
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.coach.verification import VerifiedTick
from bot.coaching.metrics import CoachMetrics
from bot.coaching.retry import CoachRetry
from bot.coaching.setup import CoachSetup
from bot.coaching.store import CoachStore

log = logging.getLogger(__name__)


async def cached_reading(
    coach: CoachStore, metrics: CoachMetrics, cache_key: str
) -> tuple[tuple[VerifiedTick, ...], int] | None:
    """The verified ticks (and how many were dropped) of an earlier reading with the same
    ``cache_key`` (answer text, key points, model), counted as a cached request; None."""
    cached = await coach.cached_ticks(cache_key)
    if cached is not None:
        metrics.coach_request("cached")
    return cached


async def budget_spent(
    setup: CoachSetup,
    coach: CoachStore,
    *,
    platform: str,
    workspace: str,
    member_id: int,
    now: datetime,
) -> str | None:
    """Which daily budget the member's next request would exceed, as they are told (the
    workspace's tokens or the member's requests); None: neither."""
    usage = await coach.usage(platform, workspace, member_id, budget_day(now).date())
    return setup.budget.spent(
        workspace_tokens=usage.workspace_tokens, member_requests=usage.member_requests
    )


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
