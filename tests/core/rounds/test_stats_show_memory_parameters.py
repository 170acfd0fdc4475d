"""`/quiz stats` says which FSRS parameters the team's memory model has (FSRS's defaults)
and, once a fit is kept, since when, with its held-out figures."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.kernel.render import Field
from bot.learning.parameter_fit import DEFAULTS, FitOutcome
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
    after = (await quiz.command("stats", by="bob")).card
    assert memory_field(after.fields) == (
        "FSRS defaults; parameters fitted to the team's reviews kept since 2026-09-06 03:00"
        " UTC (held-out log loss 0.5512 against 0.6130, 120 reviews held out), not yet"
        " applied to the cards"
    )
