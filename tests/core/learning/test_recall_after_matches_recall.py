"""The heatmap's quick forecast (``recall_after``: FSRS-6's forgetting curve from a card's
stability and last review) is the forecast of the FSRS scheduler (``recall``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.learning.memory_model import MemoryCard, recall, recall_after

LAST = datetime(2026, 3, 2, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize("stability", [0.4, 2.5, 17.0, 300.0])
@pytest.mark.parametrize("days", [0, 1, 6.9, 40, 400])
def test_the_quick_forecast_is_the_schedulers(stability: float, days: float) -> None:
    card = MemoryCard(7, stability, 5.0, LAST + timedelta(days=3), LAST, 3)
    at = LAST + timedelta(days=days)
    assert recall_after(stability, LAST, at) == pytest.approx(recall(card, at), abs=1e-12)
