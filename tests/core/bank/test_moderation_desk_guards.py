"""The review desk's guards: workspaces, self-approval, repeated flags, pending caps."""

from __future__ import annotations

import itertools

from bot.bank.catalog import workspace_of
from bot.bank.moderation_cards import EDIT_ACTION
from bot.bank.suggestion_forms import MAX_PENDING_SUGGESTIONS
from bot.kernel.refs import ChannelRef
from tests.core.bank.test_suggestions import GOOD, press, submit, suggest
from tests.harness import QuizHarness


def _elsewhere(quiz: QuizHarness) -> QuizHarness:
    return QuizHarness(
        quiz.service,
        quiz.platform,
        quiz.clock,
        ChannelRef("fake", "other-team", "C9"),
        itertools.count(500),
    )


async def test_an_admin_of_another_workspace_can_neither_see_nor_edit_a_suggestion(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await suggest(quiz)
    other = _elsewhere(quiz)
    await other.command("now")
    opened = await other.command("review edit s1")
    assert opened.form is None
    assert "belongs to another workspace" in opened.card.body
    forged = await submit(
        other,
        "edit_suggestion",
        {**GOOD, "topic": "stolen"},
        by="admin",
        target="s1",
        channel=other.channel,
    )
    assert "belongs to another workspace" in forged.card.body
    [pending] = await quiz.service.store.bank.pending_suggestions(workspace_of(quiz.channel))
    assert pending.question.topic == "kv-cache"
    # the same workspace's admin still can
    assert (await press(quiz, EDIT_ACTION, "s1")).form is not None


async def test_approving_ones_own_suggestion_pays_no_bonus(quiz: QuizHarness) -> None:
    await quiz.command("now")
    opened = await quiz.command("suggest", by="admin")
    assert opened.form is not None
    own = await submit(quiz, "suggest", GOOD, by="admin")
    assert not own.problems, own.card.body
    approved = await quiz.command("review approve s1")
    assert approved.card.title == "Approved #s1"
    assert "no bonus for approving your own suggestion" in approved.card.body
    assert "Admin" not in (await quiz.command("leaderboard")).card.body


async def test_a_repeated_flag_on_the_same_round_is_folded(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first = await quiz.command("flag typo", by="bob")
    assert "#f1" in first.card.body
    for _ in range(2):
        again = await quiz.command("flag typo", by="bob")
        assert "already flagged" in again.card.body and "#f1" in again.card.body
    await quiz.command("flag the figure is wrong", by="carol")
    flags = await quiz.service.store.bank.flags()
    assert [(f.member.member_id, f.reason) for f in flags] == [
        ("bob", "typo"),
        ("carol", "the figure is wrong"),
    ]


async def test_pending_suggestions_per_member_are_capped(quiz: QuizHarness) -> None:
    await quiz.command("now")
    for n in range(MAX_PENDING_SUGGESTIONS):
        values = {**GOOD, "question": f"Question number {n}: why does {n * 'x'} matter?"}
        accepted = await submit(quiz, "suggest", values)
        assert not accepted.problems, accepted.card.body
    extra = {**GOOD, "question": "One more question about pipeline bubbles?"}
    refused = await submit(quiz, "suggest", extra)
    assert f"{MAX_PENDING_SUGGESTIONS} suggestions waiting" in refused.card.body
    assert extra["question"] in refused.card.body  # the input is kept
    pending = await quiz.service.store.bank.pending_suggestions(workspace_of(quiz.channel))
    assert len(pending) == MAX_PENDING_SUGGESTIONS
    # another member is not held back, and a decision frees a place
    assert not (await submit(quiz, "suggest", extra, by="bob")).problems
    await quiz.command("review reject s1")
    assert (
        "waits for an admin"
        in (
            await submit(
                quiz, "suggest", {**extra, "question": "And what about tensor parallel overlap?"}
            )
        ).card.body
    )
