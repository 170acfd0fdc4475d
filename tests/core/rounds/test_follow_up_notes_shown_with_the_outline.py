"""A follow-up's reference notes and the outline's corrections are shown with the outline,
after the reveal, never with the follow-ups."""

from __future__ import annotations

import pytest

from bot.rounds.cards import CORRECTIONS_HEADING, FOLLOW_UP_NOTES_HEADING, KEY_POINTS_HEADING
from questions.catalog import Catalog
from tests.core.rounds.test_an_edit_keeps_the_follow_up_notes import (
    ASK_1,
    ASK_2,
    FACT,
    OUTLINE,
    PACK,
    SOURCE,
)
from tests.harness import QuizHarness

OUTLINE_BODY = (
    f"{OUTLINE}\n\n{CORRECTIONS_HEADING}\n• {FACT} (Source: {SOURCE})"
    f"\n\n{KEY_POINTS_HEADING}\n☐ registers\n☐ shared memory\n☐ L2 and HBM"
    f"\n\n{FOLLOW_UP_NOTES_HEADING}"
    f"\nFollow-up 1: {ASK_1}\n– Up to 163 KB per block on A100, opted in."
    "\n– More per block means fewer blocks per SM."
    f"\nFollow-up 2: {ASK_2}\n– Resident warps hide latency."
    "\n– Low occupancy is fine with enough ILP."
)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog([PACK])


async def test_notes_and_corrections_come_with_the_outline_not_before(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "Registers, shared memory, L2, HBM.")
    thread = await quiz.thread()
    [follow_ups] = [m.card for m in quiz.platform.in_thread(thread)]
    assert follow_ups.bullets == (ASK_1, ASK_2, "Anything else?")
    assert "163 KB" not in str(follow_ups) and FACT not in str(follow_ups)
    await quiz.command("reveal")
    outline = quiz.platform.in_thread(thread)[-1].card
    assert outline.title == "Sample answer outline"
    assert outline.body == OUTLINE_BODY
