"""Old completed outbox actions and old event ids are deleted; nothing is sent twice for it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.kernel.events import Reply
from bot.kernel.models import AnswerOutcome
from bot.kernel.refs import MessageRef, ThreadRef
from tests.harness import QuizHarness


def outbox_keys(db_path: Path) -> set[str]:
    with closing(sqlite3.connect(db_path)) as conn:
        return {row[0] for row in conn.execute("SELECT key FROM outbox")}


def event_ids(db_path: Path) -> set[str]:
    with closing(sqlite3.connect(db_path)) as conn:
        return {row[0] for row in conn.execute("SELECT event_id FROM processed_events")}


async def test_done_actions_of_closed_rounds_go_after_the_retention(
    quiz: QuizHarness, db_path: Path
) -> None:
    await quiz.command("now")
    first = await quiz.round()
    await quiz.react("alice", "💡")
    await quiz.command("now")  # closes the first round
    second = await quiz.round()
    assert len(outbox_keys(db_path)) == 8

    quiz.clock.advance(days=29)
    assert (await quiz.service.retention.prune()).actions == 0
    quiz.clock.advance(days=2)
    pruned = await quiz.service.retention.prune()

    assert pruned.actions == 5
    left = outbox_keys(db_path)
    assert not any(key.startswith(f"round:{first.id}:") for key in left)
    assert {f"round:{second.id}:{kind}" for kind in ("question", "thread", "hint")} == left


async def test_a_round_closed_by_the_next_question_posts_its_outline_once_even_after_pruning(
    quiz: QuizHarness, db_path: Path
) -> None:
    await quiz.command("now")
    first = await quiz.round()
    thread = await quiz.thread()
    assert first.question_message is not None
    await quiz.answer("bob", "an answer")  # the first answer posts the follow-ups
    assert len(quiz.platform.in_thread(thread)) == 1
    await quiz.command("now")  # closes the first round, revealing it first
    assert quiz.platform.in_thread(thread)[-1].key == f"round:{first.id}:outline"
    quiz.clock.advance(days=40)
    await quiz.service.retention.prune()
    assert not any(key.startswith(f"round:{first.id}:") for key in outbox_keys(db_path))

    await quiz.react("carol", "💡", message_id=first.question_message)  # a late reveal

    titles = quiz.platform.titles(thread)
    assert len(titles) == 2  # the follow-ups once, then the outline once


async def test_event_ids_are_kept_for_the_redelivery_window_then_forgotten(
    quiz: QuizHarness, db_path: Path
) -> None:
    await quiz.command("now")
    await quiz.answer("bob", "first", event_id="ev-answer", message_id="a1")
    quiz.clock.advance(days=6)
    await quiz.service.retention.prune()
    assert "ev-answer" in event_ids(db_path)
    thread = await quiz.thread()
    redelivered = Reply(
        "ev-answer",
        quiz.channel,
        ThreadRef(quiz.channel, thread),
        MessageRef(quiz.channel, "a1"),
        quiz.member("bob"),
        "first",
    )
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    assert await quiz.service.engine.on_reply(redelivered, channel) is AnswerOutcome.DUPLICATE

    quiz.clock.advance(days=2)
    pruned = await quiz.service.retention.prune()
    assert pruned.events >= 1
    assert "ev-answer" not in event_ids(db_path)
    # Past the window the answer is still counted once: it is unique per round and message.
    assert await quiz.service.engine.on_reply(redelivered, channel) is AnswerOutcome.DUPLICATE
    answers = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert [(a.message_id, a.points > 0) for a in answers] == [("a1", True)]
