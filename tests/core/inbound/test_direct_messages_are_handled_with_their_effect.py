"""A member's direct message is marked handled only with its effect, on both store backends.

A practice answer's event id is recorded in the transaction that saves the answer (the
session's step), as a reply's and a reaction's are: a kill or a store failure before that
leaves nothing recorded, so the platform's redelivery is handled, not dropped as a
duplicate; a redelivery after it changes nothing. A practice grade closes its session in
the transaction that records the grade: a kill in between cannot close a session whose
grade was never kept.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.kernel.errors import NotRecorded
from bot.kernel.events import DirectMessage
from bot.kernel.refs import MessageRef
from bot.practice._cards import practice_value
from tests.core.practice.test_practice_sessions import dm, dm_cards, press, press_grade, session_of
from tests.fakes import SimulatedCrash
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    """The service over SQLite, then over PostgreSQL."""
    return quiz_on_both


def written(quiz: QuizHarness, name: str, text: str, event_id: str) -> DirectMessage:
    """The member's DM as the platform delivers it, every time with the same event id."""
    channel = dm(quiz, name)
    return DirectMessage(
        event_id, channel, MessageRef(channel, f"dm-{event_id}"), quiz.member(name), text
    )


def titles(quiz: QuizHarness, name: str) -> list[str]:
    return [card.title for card in dm_cards(quiz, name)]


async def test_an_answer_killed_before_it_was_saved_is_handled_when_delivered_again(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("practice networking", by="ann")  # one follow-up in the sample pack
    practice = quiz.service.store.practice
    advance = practice.advance

    async def killed(*args: Any, **kwargs: Any) -> bool:
        raise SimulatedCrash("the process dies before the answer is saved")

    monkeypatch.setattr(practice, "advance", killed)
    answer = written(quiz, "ann", "my answer", "dm-ev-1")
    with pytest.raises(SimulatedCrash):
        await quiz.service.handle(answer)
    monkeypatch.setattr(practice, "advance", advance)

    await quiz.service.handle(answer)  # the platform delivers it again, same event id
    await quiz.service.settle()
    session = await session_of(quiz, "ann")
    assert session is not None and session.answers == 1  # saved, not dropped as a duplicate
    assert titles(quiz, "ann") == ["Practice question", "Follow-up 1 of 1"]

    await quiz.service.handle(answer)  # delivered once more, after it was saved: dropped
    await quiz.service.settle()
    again = await session_of(quiz, "ann")
    assert again is not None and again.answers == 1
    assert titles(quiz, "ann") == ["Practice question", "Follow-up 1 of 1"]


async def test_an_answer_the_store_could_not_save_is_not_acknowledged_and_counts_once(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("practice networking", by="bob")
    practice = quiz.service.store.practice
    advance = practice.advance

    async def store_down(*args: Any, **kwargs: Any) -> bool:
        raise RuntimeError("the database is unreachable")

    monkeypatch.setattr(practice, "advance", store_down)
    answer = written(quiz, "bob", "my answer", "dm-ev-2")
    with pytest.raises(NotRecorded):  # Slack answers 503, Discord keeps it and retries
        await quiz.service.handle(answer)
    monkeypatch.setattr(practice, "advance", advance)

    assert await quiz.service.handle(answer) is None
    await quiz.service.settle()
    session = await session_of(quiz, "bob")
    assert session is not None and session.answers == 1
    assert titles(quiz, "bob") == ["Practice question", "Follow-up 1 of 1"]


async def test_a_grade_killed_before_it_was_recorded_leaves_the_session_to_grade(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("practice memory", by="cid")  # one follow-up, then the outline
    for event_id in ("dm-ev-3", "dm-ev-4"):
        await quiz.service.handle(written(quiz, "cid", "an answer", event_id))
    await quiz.service.settle()
    assert titles(quiz, "cid")[-1] == "Sample answer outline"
    session = await session_of(quiz, "cid")
    assert session is not None
    learning = quiz.service.store.learning
    record_grade = learning.record_grade

    async def killed(*args: Any, **kwargs: Any) -> object:
        raise SimulatedCrash("the process dies before the grade is recorded")

    monkeypatch.setattr(learning, "record_grade", killed)
    with pytest.raises(SimulatedCrash):
        await press(quiz, "cid", "grade_good", practice_value(session.id))
    monkeypatch.setattr(learning, "record_grade", record_grade)

    await press_grade(quiz, "cid", "grade_good", practice_value(session.id))  # again
    member_id = await quiz.service.store.members.member_id(quiz.member("cid"))
    log = await learning.grade_log(member_id)
    assert [(question, grade.name) for question, grade, _, _ in log] == [
        (session.question_id, "GOOD")
    ]
    assert await session_of(quiz, "cid") is None
