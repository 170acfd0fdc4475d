"""`/quiz stats` says which FSRS parameters the team's memory model runs on (FSRS's defaults)
and, once a fit is kept, that fit, since when, with its held-out figures. A fit recorded
by another replica is followed once this one's cached parameters are older than
:data:`PARAMETER_REFRESH`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.kernel.render import Field
from bot.learning.parameter_fit import DEFAULTS, FitOutcome
from bot.learning.parameter_fitting import PARAMETER_REFRESH
from bot.learning.parameter_store import FitRecord
from tests.harness import QuizHarness


def memory_field(fields: Sequence[Field]) -> str:
    [value] = [f.value for f in fields if f.name == "Memory model parameters"]
    return value


async def test_stats_say_defaults_then_the_kept_fit_and_since_when(quiz: QuizHarness) -> None:
    await quiz.command("now")
    before = (await quiz.command("stats", by="bob")).card
    assert memory_field(before.fields).startswith("FSRS defaults (a fit needs 400 reviews")
    fits = quiz.service.store.fitted_parameters
    fitted_at = datetime(2026, 9, 6, 3, 0, tzinfo=UTC)
    kept = FitOutcome(480, 120, 0.6130, 0.5512, DEFAULTS, True)
    await fits.record_fit(FitRecord("fake", "team", fitted_at, "weekly", kept))
    await fits.record_fit(
        FitRecord("fake", "other", fitted_at, "weekly", FitOutcome(1, 1, 1, 1, DEFAULTS, True))
    )
    cached = (await quiz.command("stats", by="bob")).card
    assert memory_field(cached.fields).startswith("FSRS defaults (a fit needs 400 reviews")
    quiz.clock.advance(seconds=PARAMETER_REFRESH.total_seconds())
    after = (await quiz.command("stats", by="bob")).card
    assert memory_field(after.fields) == (
        "fitted to the team's reviews, in use since 2026-09-06 03:00 UTC (held-out log loss"
        " 0.5512 against 0.6130 before, 120 reviews held out)"
    )
