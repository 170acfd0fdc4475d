"""An inbound answer, edit or reaction the store could not take is never acknowledged.

``QuizService.handle`` raises ``NotRecorded`` (chained from the store's error) so the
adapter can have it delivered again; the redelivery counts once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import pytest

from bot.kernel.errors import NotRecorded
from bot.kernel.events import Command, Reaction, Reply
from bot.kernel.models import ActionKind, Delivery, OutboxDraft, Revealed
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import CardKind
from tests.harness import QuizHarness
from tests.storage.write_lock import SHORT_BUSY_TIMEOUT_MS, held_write_lock


@pytest.fixture
def busy_timeout_ms() -> int:
    return SHORT_BUSY_TIMEOUT_MS


def _reply(
    quiz: QuizHarness, thread: str, event_id: str, by: str, *, edited: bool = False
) -> Reply:
    channel = quiz.channel
    return Reply(
        event_id,
        channel,
        ThreadRef(channel, thread),
        MessageRef(channel, f"msg-{by}"),
        quiz.member(by),
        f"answer of {by}" + (" (edited)" if edited else ""),
        edited=edited,
    )


async def _scores(quiz: QuizHarness) -> dict[str, int]:
    round_ = await quiz.round()
    answers = await quiz.service.store.answers.round_answers(round_.id)
    return {str(a.member_id): a.points for a in answers}


async def test_an_answer_the_store_cannot_write_raises_not_recorded_and_counts_once_later(
    quiz: QuizHarness, db_path: Path
) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    events = [_reply(quiz, thread, f"ev-answer-{who}", who) for who in ("ann", "bob")]
    with held_write_lock(db_path):
        for event in events:
            with pytest.raises(NotRecorded) as raised:
                await quiz.service.handle(event)
            assert isinstance(raised.value.__cause__, sqlite3.OperationalError)
    assert await _scores(quiz) == {}
    for event in events + events:  # redelivered, then delivered once more
        assert await quiz.service.handle(event) is None
    assert len(await _scores(quiz)) == 2


async def test_a_reveal_reaction_that_failed_after_its_id_was_seen_is_redone(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    assert round_.question_message is not None
    store = quiz.service.store
    real_reveal = store.rounds.reveal_round_by_message
    calls: list[str] = []

    async def fail_first(
        channel_id: int,
        message: str,
        at: datetime,
        kinds: Sequence[ActionKind],
        *,
        delivery: Delivery,
    ) -> Revealed | None:
        calls.append(message)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await real_reveal(channel_id, message, at, kinds, delivery=delivery)

    monkeypatch.setattr(store.rounds, "reveal_round_by_message", fail_first)
    reaction = Reaction(
        "ev-reveal",
        quiz.channel,
        MessageRef(quiz.channel, round_.question_message),
        quiz.member("ann"),
        "💡",
    )
    with pytest.raises(NotRecorded):
        await quiz.service.handle(reaction)
    await quiz.service.handle(reaction)  # Slack's redelivery: the same event id
    await quiz.service.handle(reaction)
    await quiz.service.settle()
    assert (await quiz.thread_titles()).count("Sample answer outline") == 1


async def test_an_edit_that_failed_after_its_id_was_seen_is_redone(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    await quiz.service.handle(_reply(quiz, thread, "ev-answer", "ann"))
    store = quiz.service.store
    real_edit = store.answers.edit_answer
    failures = [sqlite3.OperationalError("database or disk is full")]

    async def fail_first(*args: object) -> bool:
        if failures:
            raise failures.pop()
        return await real_edit(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(store.answers, "edit_answer", fail_first)
    edit = _reply(quiz, thread, "ev-edit", "ann", edited=True)
    with pytest.raises(NotRecorded):
        await quiz.service.handle(edit)
    await quiz.service.handle(edit)
    [answer] = await store.answers.round_answers((await quiz.round()).id)
    assert answer.text == "answer of ann (edited)"


async def test_follow_ups_whose_queuing_failed_after_the_answer_was_saved_go_out_on_redelivery(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    store = quiz.service.store
    real_enqueue = store.outbox.enqueue
    failures = [sqlite3.OperationalError("database or disk is full")]

    async def fail_first(drafts: Sequence[OutboxDraft], at: datetime) -> int:
        if failures:
            raise failures.pop()
        return await real_enqueue(drafts, at)

    monkeypatch.setattr(store.outbox, "enqueue", fail_first)
    answer = _reply(quiz, thread, "ev-first-answer", "ann")
    with pytest.raises(NotRecorded):  # the answer is saved, its follow-ups are not queued
        await quiz.service.handle(answer)
    assert len(await _scores(quiz)) == 1
    await quiz.service.handle(answer)  # the redelivery: a duplicate answer
    await quiz.service.handle(answer)
    await quiz.service.settle()
    assert await quiz.thread_titles() == ["Follow-up questions"]
    assert len(await _scores(quiz)) == 1


async def test_commands_still_get_an_error_card_when_the_store_fails(
    quiz: QuizHarness, db_path: Path
) -> None:
    with held_write_lock(db_path):
        response = await quiz.service.handle(
            Command("ev-cmd", quiz.channel, quiz.member("admin"), "now", ())
        )
    assert response is not None and response.card.kind is CardKind.ERROR
