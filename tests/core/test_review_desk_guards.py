"""The review desk's guards: workspaces, self-approval, repeated flags, pending caps."""

from __future__ import annotations

import itertools

from bot.refs import ChannelRef
from bot.review_cards import EDIT_ACTION
from bot.workspace_catalog import workspace_of
from tests.core.test_suggestions import GOOD, press, submit, suggest
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
