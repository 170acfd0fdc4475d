"""Private practice in the direct messages, through the core and the fake platform: the
whole interview, the policy's choice, one session per member, expiry, and the refusals."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel.errors import NotRecorded
from bot.kernel.events import ButtonPress, Command, DirectMessage
from bot.kernel.grades import Grade
from bot.kernel.models import OutboxDraft
from bot.kernel.refs import ChannelRef, MessageRef
from bot.kernel.render import Card, Response
from bot.learning.goal_hint import HINT as GOAL_HINT
from bot.practice import _cards as practice_cards
from bot.practice._cards import NEXT_ACTION, practice_value
from bot.practice.sessions import ALREADY_OPEN, same_place
from bot.practice.store import PracticeSession
from tests.harness import QuizHarness

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def dm(quiz: QuizHarness, name: str) -> ChannelRef:
    return ChannelRef(quiz.platform.name, quiz.channel.workspace, f"D-{name}", "DM")


def dm_cards(quiz: QuizHarness, name: str) -> list[Card]:
    where = dm(quiz, name)
    return [m.card for m in quiz.platform.messages if same_place(m.channel, where)]


async def write(quiz: QuizHarness, name: str, text: str) -> None:
    channel = dm(quiz, name)
    event_id = quiz.event_id()
    await quiz.service.handle(
        DirectMessage(
            event_id, channel, MessageRef(channel, f"dm{event_id}"), quiz.member(name), text
        )
    )
    await quiz.service.settle()


async def in_dm(quiz: QuizHarness, name: str, text: str) -> Response:
    word, *args = text.split()
    response = await quiz.service.handle(
        Command(quiz.event_id(), dm(quiz, name), quiz.member(name), word, tuple(args))
    )
    assert response is not None
    await quiz.service.settle()
    return response


async def press(quiz: QuizHarness, name: str, action: str, value: str) -> Response:
    channel = dm(quiz, name)
    event = ButtonPress(
        quiz.event_id(), channel, MessageRef(channel, "m-card"), quiz.member(name), action, value
    )
    response = await quiz.service.handle(event)
    assert response is not None
    await quiz.service.settle()
    return response


async def grade_quietly(quiz: QuizHarness, name: str, event: Command | ButtonPress) -> None:
    """A practice grade: nothing is told privately, the DM's confirmation is the only one."""
    assert await quiz.service.handle(event) is None
    await quiz.service.settle()
    graded = [c for c in dm_cards(quiz, name) if c.title.startswith("Practice graded")]
    assert len(graded) == 1


async def press_grade(quiz: QuizHarness, name: str, action: str, value: str) -> None:
    channel = dm(quiz, name)
    press = ButtonPress(
        quiz.event_id(), channel, MessageRef(channel, "m-card"), quiz.member(name), action, value
    )
    await grade_quietly(quiz, name, press)


async def grade_in_dm(quiz: QuizHarness, name: str, text: str) -> None:
    word, *args = text.split()
    command = Command(quiz.event_id(), dm(quiz, name), quiz.member(name), word, tuple(args))
    await grade_quietly(quiz, name, command)


async def session_of(quiz: QuizHarness, name: str) -> PracticeSession | None:
    member_id = await quiz.service.store.members.member_id(quiz.member(name))
    return await quiz.service.practice.current(member_id)


async def test_a_whole_practice_session_walks_the_question_like_an_interview(
    quiz: QuizHarness,
) -> None:
    started = await quiz.command("practice gpu", by="alice")
    assert started.card.title == "Practice started"
    assert [c.title for c in dm_cards(quiz, "alice")] == ["Practice question"]
    question = dm_cards(quiz, "alice")[0].body
    assert question in ("Question gpu-1?", "Question gpu-2?")

    await write(quiz, "alice", "my answer")
    follow_up = dm_cards(quiz, "alice")[-1]
    assert follow_up.title.startswith("Follow-up 1 of")
    session = await session_of(quiz, "alice")
    assert session is not None
    while dm_cards(quiz, "alice")[-1].title != "Sample answer outline":
        await write(quiz, "alice", "a follow-up answer")
    titles = [c.title for c in dm_cards(quiz, "alice")]
    follow_ups = 2 if question == "Question gpu-1?" else 1
    assert titles == [
        "Practice question",
        *(f"Follow-up {n} of {follow_ups}" for n in range(1, follow_ups + 1)),
        "Sample answer outline",
    ]
    outline = dm_cards(quiz, "alice")[-1]
    assert [b.value for b in outline.buttons] == [practice_value(session.id)] * 4

    await press_grade(quiz, "alice", "grade_good", practice_value(session.id))
    confirmation = dm_cards(quiz, "alice")[-1]  # in the DM, through the outbox
    assert confirmation.title == "Practice graded: good"
    assert "comes back for you on" in confirmation.body
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    cards = await quiz.service.store.learning.member_cards(member_id)
    assert list(cards) == [session.question_id]  # the member's own card
    assert await quiz.service.store.reports.leaderboard(1, None) == []  # no channel points

    (next_button,) = confirmation.buttons
    assert next_button.action == NEXT_ACTION
    again = await press(quiz, "alice", NEXT_ACTION, next_button.value)
    assert again.card.title == "Practice started"
    second = dm_cards(quiz, "alice")[-1]
    assert second.title == "Practice question"
    assert second.body != question  # graded today: not offered again


async def test_the_grade_command_in_the_dm_grades_the_session(quiz: QuizHarness) -> None:
    await quiz.command("practice networking", by="bob")
    early = await in_dm(quiz, "bob", "grade good")
    assert early.card.body == "Answer the question and its follow-ups first, then grade."
    while dm_cards(quiz, "bob")[-1].title != "Sample answer outline":
        await write(quiz, "bob", "an answer")
    await grade_in_dm(quiz, "bob", "grade partly")
    assert dm_cards(quiz, "bob")[-1].title == "Practice graded: partly"
    assert await session_of(quiz, "bob") is None


async def test_the_policy_chooses_the_question(quiz: QuizHarness) -> None:
    member_id = await quiz.service.store.members.member_id(quiz.member("carol"))
    now = quiz.clock.now()
    expected = await quiz.service.learning.choose_practice(member_id, now)
    await quiz.command("practice", by="carol")
    session = await session_of(quiz, "carol")
    assert session is not None and session.question_id == expected


async def test_one_session_per_member_and_stop(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="dave")
    second = await quiz.command("practice", by="dave")
    assert second.card.body == ALREADY_OPEN
    assert len(dm_cards(quiz, "dave")) == 1
    other = await quiz.command("practice", by="erin")  # another member may practise meanwhile
    assert other.card.title == "Practice started"
    stopped = await quiz.command("practice stop", by="dave")
    assert stopped.card.title == "Practice session ended."
    assert await session_of(quiz, "dave") is None
    await write(quiz, "dave", "too late")
    assert dm_cards(quiz, "dave")[-1].title == "Practice"  # the help text, not a follow-up
    assert (await quiz.command("practice stop", by="dave")).card.title == (
        "No practice session is open."
    )


async def test_a_session_left_for_a_day_expires_quietly(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="frank")
    quiz.clock.advance(hours=23)
    await write(quiz, "frank", "still here")
    assert await session_of(quiz, "frank") is not None  # the answer touched it
    sent = len(quiz.platform.messages)
    quiz.clock.advance(hours=24)
    assert await session_of(quiz, "frank") is None
    assert len(quiz.platform.messages) == sent  # quietly: nothing sent
    assert (await quiz.command("practice", by="frank")).card.title == "Practice started"


async def test_other_direct_messages_get_the_help_text(quiz: QuizHarness) -> None:
    await write(quiz, "gina", "hello bot")
    (card,) = dm_cards(quiz, "gina")
    assert "only while a practice session waits for your answer" in card.body
    refused = await quiz.command("practice nettworking", by="gina")
    assert refused.card.body.startswith("Unknown topic")
    assert "nettworking" in refused.card.body
    assert "Topics: gpu, memory, networking.\nUse: /quiz practice" in refused.card.body
    assert await session_of(quiz, "gina") is None


async def test_practice_texts_send_the_member_to_the_direct_messages_not_a_channel(
    quiz: QuizHarness,
) -> None:
    await write(quiz, "gina", "hello bot")
    (help_card,) = dm_cards(quiz, "gina")
    graded = practice_cards.graded_card(Grade.GOOD, T0, "UTC", session_id=1)

    for card in (help_card, graded):
        assert "quiz channel" not in card.body
        assert "`/quiz practice" in card.body and "right here" in card.body


async def test_an_answer_whose_follow_up_could_not_be_queued_gets_it_when_written_again(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("practice networking", by="ann")  # one follow-up in the sample pack
    engine = quiz.service.engine
    send_direct = engine.send_direct
    failed: list[str] = []

    async def store_down_once(destination: ChannelRef, card: Card, key: str) -> None:
        if key.endswith(":follow-up:1") and not failed:
            failed.append(key)
            raise RuntimeError("database is locked")
        await send_direct(destination, card, key)

    monkeypatch.setattr(engine, "send_direct", store_down_once)
    with pytest.raises(NotRecorded):  # not acknowledged: the platform delivers it again
        await write(quiz, "ann", "my answer")
    assert failed and [c.title for c in dm_cards(quiz, "ann")] == ["Practice question"]

    await write(quiz, "ann", "my answer")  # written again: the follow-up, not the outline
    assert [c.title for c in dm_cards(quiz, "ann")] == ["Practice question", "Follow-up 1 of 1"]
    await write(quiz, "ann", "my follow-up answer")
    assert dm_cards(quiz, "ann")[-1].title == "Sample answer outline"


async def test_a_session_whose_question_could_not_be_queued_gets_it_on_the_next_start(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = quiz.service.engine
    queue = engine.queue
    failed: list[str] = []

    async def store_down_once(drafts: Sequence[OutboxDraft]) -> None:
        if any(d.key.endswith(":question") for d in drafts) and not failed:
            failed.append(drafts[0].key)
            raise RuntimeError("database is locked")
        await queue(drafts)

    monkeypatch.setattr(engine, "queue", store_down_once)
    first = await quiz.command("practice", by="dave")
    assert failed and first.card.kind.value == "error" and dm_cards(quiz, "dave") == []

    again = await quiz.command("practice", by="dave")
    assert again.card.body == ALREADY_OPEN
    assert [c.title for c in dm_cards(quiz, "dave")] == ["Practice question"]
    await quiz.command("practice", by="dave")
    assert len(dm_cards(quiz, "dave")) == 1  # queued again under its key: sent once


async def test_practice_without_a_goal_says_once_that_a_goal_would_aim_it(
    quiz: QuizHarness,
) -> None:
    first = await quiz.command("practice", by="alice")
    assert first.card.title == "Practice started"
    assert GOAL_HINT in first.card.body
    await quiz.command("practice stop", by="alice")
    second = await quiz.command("practice", by="alice")
    assert second.card.title == "Practice started"
    assert GOAL_HINT not in second.card.body  # once is enough, kept with the store's facts
    # a member with a goal is never told: their practice aims at it already
    await quiz.command(f"goal {(T0 + timedelta(days=400)).date().isoformat()}", by="bob")
    with_goal = await quiz.command("practice", by="bob")
    assert with_goal.card.title == "Practice started"
    assert GOAL_HINT not in with_goal.card.body
