"""Only inbound events that changed something are kept in ``processed_events``."""

from __future__ import annotations

from pathlib import Path

from tests.core.outbox.test_retention import event_ids as recorded
from tests.harness import QuizHarness


async def test_reactions_that_change_nothing_leave_no_event_row(
    quiz: QuizHarness, db_path: Path
) -> None:
    await quiz.command("now")
    answer = await quiz.answer("bob", "an answer")
    before = recorded(db_path)

    await quiz.react("carol", "🎉", event_id="ev-party")  # not the reveal emoji
    await quiz.react("bob", "👍", message_id=answer, event_id="ev-own-vote")  # own answer
    await quiz.react("carol", "👍", message_id="not-an-answer", event_id="ev-stray")
    assert recorded(db_path) == before

    await quiz.react("carol", "👍", message_id=answer, event_id="ev-vote")
    await quiz.react("carol", "💡", event_id="ev-reveal")
    await quiz.react("dave", "💡", event_id="ev-late-reveal")  # already revealed
    assert recorded(db_path) - before == {"ev-vote", "ev-reveal"}
    assert (await quiz.thread_titles()).count("Sample answer outline") == 1
