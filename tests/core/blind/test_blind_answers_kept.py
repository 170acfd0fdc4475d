"""Blind answers are never lost and never doubled, on both store backends: a round closed
without a reveal posts them, the switch back to the thread posts what is left, a change
that races the reveal is refused instead of being stored but never shown, and a member has
one answer per round whether it came blind or as a reply in the thread."""

from __future__ import annotations

import pytest

from bot.blind.posts import PLACEHOLDER_PREFIX
from bot.kernel.errors import Refused
from bot.kernel.models import AnswerRecord, Round
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card, CardKind
from tests.core.blind.test_blind_answers import blind_round, press_answer, submit
from tests.fakes import FakePlatform
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    """The service over SQLite, then over PostgreSQL."""
    return quiz_on_both


def posted(platform: FakePlatform, thread: str) -> list[tuple[str, str]]:
    """The blind answers posted in the thread: (title, text)."""
    return [
        (m.card.title, m.card.body)
        for m in platform.in_thread(thread)
        if m.card.title.endswith("'s answer")
    ]


async def stored(quiz: QuizHarness, round_: Round) -> list[AnswerRecord]:
    return await quiz.service.round_answers(round_.id)


def unposted(answers: list[AnswerRecord]) -> list[str]:
    return [a.text for a in answers if a.message_id.startswith(PLACEHOLDER_PREFIX)]


# 1. a round closed without a reveal


async def test_skipping_a_blind_round_posts_its_answers_in_the_thread_without_the_outline(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    await submit(quiz, "bob", "bob's take")
    skipped = await quiz.round()
    await quiz.command("skip")
    thread = await quiz.thread()
    assert posted(platform, thread) == [
        ("Alice's answer", "alice's take"),
        ("Bob's answer", "bob's take"),
    ]
    assert "Sample answer outline" not in platform.titles(thread)
    assert unposted(await stored(quiz, skipped)) == []


async def test_a_new_question_closing_a_blind_round_posts_the_closed_rounds_answers(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    closed = await quiz.round()
    await quiz.command("now")
    assert closed.thread is not None
    assert posted(platform, closed.thread) == [("Alice's answer", "alice's take")]
    assert unposted(await stored(quiz, closed)) == []


async def test_an_answer_written_as_the_round_is_skipped_is_refused_not_left_unposted(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    round_ = await quiz.round()
    store = quiz.service.store
    record_answer = store.answers.record_answer

    async def skipped_meanwhile(draft: object) -> object:
        await quiz.command("skip")  # between bob's check of the round and his write
        return await record_answer(draft)  # type: ignore[arg-type]

    monkeypatch.setattr(store.answers, "record_answer", skipped_meanwhile)
    refused = await quiz.command("answer bob's take", by="bob")
    assert refused.card.kind is CardKind.ERROR
    assert refused.card.body.startswith("Question #1 is closed, so it takes no more answers")
    assert await stored(quiz, round_) == []


async def test_switching_to_the_thread_after_a_reveal_still_posts_the_revealed_answers(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    revealed = await quiz.round()
    await quiz.command("reveal", settle=False)  # the outbox has not posted them yet
    switched = await quiz.command("config answers thread", settle=False)
    assert switched.public, switched.card.body
    assert "#1" in switched.card.body
    await quiz.service.settle()
    assert revealed.thread is not None
    assert posted(platform, revealed.thread) == [("Alice's answer", "alice's take")]
    assert unposted(await stored(quiz, revealed)) == []


async def test_switching_to_the_thread_posts_answers_a_closed_round_never_posted(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    old = await quiz.round()
    await quiz.command("reveal", settle=False)
    await quiz.command("now", settle=False)  # closes it before its outline went out
    switched = await quiz.command("config answers thread")
    assert switched.public, switched.card.body
    assert old.thread is not None
    assert posted(platform, old.thread) == [("Alice's answer", "alice's take")]
    assert unposted(await stored(quiz, old)) == []


async def test_switching_to_the_thread_is_refused_naming_the_open_question_that_waits(
    quiz: QuizHarness,
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    refused = await quiz.command("config answers thread")
    assert refused.card.kind is CardKind.ERROR
    assert refused.card.body.startswith("Question #1 has 1 blind answer(s) waiting for its reveal")


# 2. a change racing the reveal


async def test_a_change_racing_the_reveal_is_refused_so_the_post_shows_the_stored_text(
    quiz: QuizHarness, platform: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "first draft")
    before = await quiz.round()
    store = quiz.service.store
    reply = platform.reply
    attempts: list[str] = []

    async def as_read_before_the_reveal(channel_id: int) -> Round:
        return before  # alice's change checked the round just before the reveal

    async def change_while_posting(thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        if card.title == "Alice's answer" and not attempts:
            with monkeypatch.context() as patched:
                patched.setattr(store.rounds, "open_round", as_read_before_the_reveal)
                try:
                    response = await quiz.service.blind.answer(
                        quiz.channel, quiz.member("alice"), "second draft", quiz.event_id()
                    )
                    attempts.append(response.card.title)
                except Refused as refused:
                    attempts.append(str(refused))
        return await reply(thread, card, key=key)

    monkeypatch.setattr(platform, "reply", change_while_posting)
    await quiz.command("reveal")
    assert posted(platform, await quiz.thread()) == [("Alice's answer", "first draft")]
    [answer] = await stored(quiz, before)
    assert answer.text == "first draft"
    [refusal] = attempts
    assert refusal.startswith("Question #1 is already revealed, so answers are")


async def test_a_change_checked_before_the_reveal_but_written_after_is_refused(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "first draft")
    before = await quiz.round()
    await quiz.command("reveal")
    store = quiz.service.store

    async def as_read_before_the_reveal(channel_id: int) -> Round:
        return before

    monkeypatch.setattr(store.rounds, "open_round", as_read_before_the_reveal)
    refused = await quiz.command("answer second draft", by="alice")
    assert refused.card.body.startswith("Question #1 is already revealed, so answers are")
    [answer] = await stored(quiz, before)
    assert answer.text == "first draft"
    assert posted(quiz.platform, await quiz.thread()) == [("Alice's answer", "first draft")]


# 3. one answer per member per round


async def test_a_member_who_replied_in_the_thread_is_told_that_reply_is_the_answer(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await quiz.answer("alice", "in the open")
    round_ = await quiz.round()
    refused = await quiz.command("answer a private one", by="alice")
    assert refused.card.kind is CardKind.ERROR
    assert refused.card.body.startswith(
        "You answered question #1 in its thread already: that reply is your answer"
    )
    assert (await press_answer(quiz, "alice")).card.kind is CardKind.ERROR
    assert [a.text for a in await stored(quiz, round_)] == ["in the open"]
    await quiz.command("reveal")
    assert posted(platform, await quiz.thread()) == []


async def test_a_reply_in_the_thread_replaces_the_members_blind_answer(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "the private one")
    round_ = await quiz.round()
    message = await quiz.answer("alice", "the public one", event_id="reply")
    [answer] = await stored(quiz, round_)
    assert (answer.text, answer.message_id) == ("the public one", message)
    assert answer.points == 15  # still the first answer, given before the reveal
    who, told = platform.told[-1]
    assert who == "alice" and "replaces your private answer" in told.body
    await quiz.answer("alice", "the public one", event_id="reply", message_id=message)
    assert [a.id for a in await stored(quiz, round_)] == [answer.id]  # delivered again
    await quiz.command("reveal")
    assert posted(platform, await quiz.thread()) == []
