"""``/quiz forget me`` erases the member and takes nothing from the teammates who stay, on
both store backends: the points a teammate earned reviewing the leaver's answers stay on
the leaderboard, and a partner's pairing history keeps the week they met, the leaver
shown as a former member (even after the leaver opts in again)."""

from __future__ import annotations

import pytest

from questions.catalog import Catalog
from tests.core.pairing.test_pairing import opted_in
from tests.core.reviews.test_peer_reviews import (
    catalog_with_key_points,
    points,
    revealed_round_with_answers,
)
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_a_reviewer_keeps_the_points_earned_on_a_leavers_answer(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)  # ann's answer is #1, bob's #2
    await quiz.command("rate #1 3 good on the ring", by="bob")
    await quiz.command("rate #1 2", by="carol")  # carol answered nothing: points from reviews only
    bob_before, carol_before = await points(quiz, "bob"), await points(quiz, "carol")
    board_before = (await quiz.command("leaderboard", by="bob")).card.plain_text()
    assert carol_before == 2 and "Carol" in board_before

    await quiz.command("forget me confirm", by="ann")

    assert await points(quiz, "bob") == bob_before
    assert await points(quiz, "carol") == carol_before
    board = (await quiz.command("leaderboard", by="bob")).card.plain_text()
    assert "Carol" in board and "Ann" not in board
    week = (await quiz.command("leaderboard week", by="bob")).card.plain_text()
    assert "Carol" in week


async def past_partners(quiz: QuizHarness, name: str) -> str:
    status = await quiz.command("pair", by=name)
    return next(f.value for f in status.card.fields if f.name == "Past partners")


async def test_a_partner_keeps_the_week_they_met_the_leaver(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair now")
    assert await past_partners(quiz, "bob") == "2026-W49: Ann"
    await quiz.command("pair rate 3 1 2", by="ann")  # ann interviewed bob and rated him
    me = await quiz.command("me", by="bob")
    assert {f.name: f.value for f in me.card.fields}["Mock interviews"] == "0 given, 1 taken"
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))

    await quiz.command("forget me confirm", by="ann")

    assert await past_partners(quiz, "bob") == "2026-W49: a former member"
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    history = await quiz.service.store.pairs.past_partners(channel.id)
    assert len(history) == 1 and ann not in history[0]
    me = await quiz.command("me", by="bob")
    assert {f.name: f.value for f in me.card.fields}["Mock interviews"] == "0 given, 1 taken"

    await quiz.command("pair on", by="ann")  # she comes back: her past stays erased
    assert await past_partners(quiz, "bob") == "2026-W49: a former member"
    assert await past_partners(quiz, "ann") == "none yet"
