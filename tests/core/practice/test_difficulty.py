"""A channel's difficulty limits its questions, and a practice session's limits its own, on
both store backends: ``/quiz config difficulty easy|medium|hard|any`` for the daily question
and ``/quiz now``, ``/quiz practice [TOPIC] [DIFFICULTY]`` for private practice (kept for
the session's next questions). A filter that leaves no question says so."""

from __future__ import annotations

import pytest

from bot.kernel.render import CardKind, Response
from bot.kernel.topic_choice import EVERY_TOPIC
from bot.practice._cards import NEXT_ACTION, practice_value
from questions.catalog import Catalog
from questions.pack import Difficulty, Pack
from tests.core.practice.test_practice_sessions import (
    dm_cards,
    press,
    press_grade,
    session_of,
    write,
)
from tests.harness import QuizHarness

# (id, topic, difficulty): every difficulty, and questions without one
QUESTIONS = (
    ("gpu-easy", "gpu", "easy"),
    ("gpu-hard", "gpu", "hard"),
    ("gpu-plain", "gpu", None),
    ("net-easy", "networking", "easy"),
    ("net-medium", "networking", "medium"),
    ("mem-plain", "memory", None),
)


def levels_pack() -> Pack:
    return Pack.model_validate(
        {
            "id": "levels",
            "title": "Questions of every difficulty",
            "questions": [
                {
                    "id": qid,
                    "topic": topic,
                    **({"difficulty": level} if level else {}),
                    "question": f"Question {qid}?",
                    "outline": f"Outline of {qid}.",
                }
                for qid, topic, level in QUESTIONS
            ],
        }
    )


@pytest.fixture
def catalog() -> Catalog:
    return Catalog([levels_pack()])


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    """The service over SQLite, then over PostgreSQL."""
    return quiz_on_both


async def asked(quiz: QuizHarness, times: int, now: str = "now") -> set[str]:
    """The pack ids of the questions ``times`` runs of ``now`` post."""
    ids = set()
    for _ in range(times):
        response = await quiz.command(now)
        assert response.card.kind is not CardKind.ERROR, response.card.body
        round_ = await quiz.round()
        question = quiz.service.engine.question_for(quiz.channel, round_.question_id)
        assert question is not None
        ids.add(question.id)
    return ids


def refusal(response: Response) -> str:
    assert response.card.kind is CardKind.ERROR, response.card
    return response.card.body


async def test_the_channel_s_difficulty_is_stored_and_any_clears_it(quiz: QuizHarness) -> None:
    response = await quiz.command("config difficulty hard")
    assert response.card.kind is not CardKind.ERROR, response.card.body
    assert "hard" in response.card.body
    channel = await quiz.service.store.channels.get_channel(quiz.channel)
    assert channel is not None and channel.difficulty is Difficulty.HARD
    assert (await quiz.service.engine.channel(quiz.channel)).difficulty is Difficulty.HARD  # type: ignore[union-attr]

    await quiz.command("config difficulty any")
    channel = await quiz.service.store.channels.get_channel(quiz.channel)
    assert channel is not None and channel.difficulty is None


async def test_now_asks_only_questions_of_the_channel_s_difficulty(quiz: QuizHarness) -> None:
    await quiz.command("config difficulty easy")
    assert await asked(quiz, 4) == {"gpu-easy", "net-easy"}  # none without a difficulty
    await quiz.command("config difficulty hard")
    assert await asked(quiz, 2) == {"gpu-hard"}
    assert await asked(quiz, 1, "now gpu") == {"gpu-hard"}


async def test_any_difficulty_asks_questions_without_one_too(quiz: QuizHarness) -> None:
    await quiz.command("config difficulty medium")
    await quiz.command("config difficulty any")
    assert await asked(quiz, len(QUESTIONS)) == {qid for qid, _, _ in QUESTIONS}


async def test_the_scheduled_question_keeps_to_the_difficulty(quiz: QuizHarness) -> None:
    await quiz.command("schedule daily 09:00 UTC")
    await quiz.command("config difficulty medium")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    for _ in range(3):
        slot = quiz.clock.advance(days=1)
        await quiz.service.post_slot(channel.id, slot)
        await quiz.service.settle()
        round_ = await quiz.round()
        question = quiz.service.engine.question_for(quiz.channel, round_.question_id)
        assert question is not None and question.id == "net-medium"


async def test_a_difficulty_no_enabled_topic_has_is_refused_naming_both(
    quiz: QuizHarness,
) -> None:
    await quiz.command("topics disable gpu")
    body = refusal(await quiz.command("config difficulty hard"))
    assert "hard" in body and "memory, networking" in body
    channel = await quiz.service.store.channels.get_channel(quiz.channel)
    assert channel is not None and channel.difficulty is None  # unchanged


async def test_disabling_the_last_topics_of_the_difficulty_is_refused(quiz: QuizHarness) -> None:
    await quiz.command("config difficulty hard")
    body = refusal(await quiz.command("topics disable gpu"))
    assert "hard" in body and "/quiz config difficulty" in body
    channel = await quiz.service.store.channels.get_channel(quiz.channel)
    assert channel is not None and channel.topics == EVERY_TOPIC  # unchanged


async def test_now_of_a_topic_without_the_difficulty_says_so(quiz: QuizHarness) -> None:
    await quiz.command("config difficulty hard")
    body = refusal(await quiz.command("now networking"))
    assert "hard" in body and "networking" in body


async def test_a_bad_difficulty_gets_the_form_and_an_example(quiz: QuizHarness) -> None:
    body = refusal(await quiz.command("config difficulty extreme"))
    assert "difficulty easy|medium|hard|any" in body and "Example:" in body
    body = refusal(await quiz.command("practice gpu extreme", by="alice"))
    assert "/quiz practice [timed MINUTES] [stop|TOPIC] [easy|medium|hard|any]" in body
    assert "Example:" in body


# practice


async def practised(quiz: QuizHarness, name: str) -> str:
    """The pack id of the question of ``name``'s open session."""
    session = await session_of(quiz, name)
    assert session is not None
    question = quiz.service.engine.question_for(session.direct, session.question_id)
    assert question is not None
    return question.id


async def test_practice_of_a_difficulty_asks_it_and_keeps_it_for_the_next_question(
    quiz: QuizHarness,
) -> None:
    started = await quiz.command("practice easy", by="alice")
    assert started.card.title == "Practice started", started.card.body
    first = await practised(quiz, "alice")
    assert first in ("gpu-easy", "net-easy")
    session = await session_of(quiz, "alice")
    assert session is not None and session.difficulty is Difficulty.EASY
    assert session.topic is None

    await write(quiz, "alice", "my answer")
    await press_grade(quiz, "alice", "grade_good", practice_value(session.id))
    (next_button,) = dm_cards(quiz, "alice")[-1].buttons
    again = await press(quiz, "alice", NEXT_ACTION, next_button.value)
    assert again.card.title == "Practice started", again.card.body
    second = await practised(quiz, "alice")
    assert second in ("gpu-easy", "net-easy") and second != first
    kept = await session_of(quiz, "alice")
    assert kept is not None and kept.difficulty is Difficulty.EASY


async def test_practice_takes_a_topic_and_a_difficulty(quiz: QuizHarness) -> None:
    started = await quiz.command("practice gpu hard", by="bob")
    assert started.card.title == "Practice started", started.card.body
    assert await practised(quiz, "bob") == "gpu-hard"


async def test_practice_of_a_difficulty_a_topic_lacks_says_so(quiz: QuizHarness) -> None:
    body = refusal(await quiz.command("practice networking hard", by="carol"))
    assert "hard" in body and "networking" in body
    assert await session_of(quiz, "carol") is None
