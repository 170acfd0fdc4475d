"""Races by one member end in one clear answer, on both store backends: a member's limit of
waiting suggestions holds however many they send at once, a double click on a grade button
records one grade, and double starts of practice or approvals of one suggestion do what one
would; none ends in "Something went wrong" from a unique constraint.

Each race runs the presses as concurrent tasks against the real store (PostgreSQL runs them
on connections of its own, at once; SQLite's writes take turns)."""

from __future__ import annotations

import asyncio

import pytest

from bot.bank.catalog import workspace_of
from bot.bank.moderation_cards import APPROVE_ACTION
from bot.bank.suggestion_forms import MAX_PENDING_SUGGESTIONS
from bot.inbound import FAILURE
from bot.kernel.events import ButtonPress, Command, FormSubmit
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.kernel.render import Response
from bot.practice.sessions import ALREADY_OPEN
from bot.rounds import cards
from tests.core.bank.test_suggestions import GOOD
from tests.harness import QuizHarness

CONCURRENT_SUGGESTIONS = 12


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    """The service over SQLite, then over PostgreSQL."""
    return quiz_on_both


async def at_once(quiz: QuizHarness, *events: FormSubmit | ButtonPress | Command) -> list[str]:
    """Handle the events concurrently; each one's answer as "title: body"."""
    responses = await asyncio.gather(*(quiz.service.handle(event) for event in events))
    answers = []
    for response in responses:
        assert isinstance(response, Response)
        assert FAILURE not in response.card.body, response.card.body
        answers.append(f"{response.card.title}: {response.card.body}")
    return answers


def suggestion(quiz: QuizHarness, number: int) -> FormSubmit:
    values = dict(GOOD, question=f"{GOOD['question']} Variant {number}.")
    return FormSubmit(quiz.event_id(), quiz.channel, quiz.member("alice"), "suggest", "", values)


def grade_press(quiz: QuizHarness, grade: Grade, round_id: int) -> ButtonPress:
    return ButtonPress(
        quiz.event_id(),
        quiz.channel,
        MessageRef(quiz.channel, "outline"),
        quiz.member("alice"),
        cards.grade_action(grade),
        str(round_id),
    )


async def test_a_dozen_suggestions_at_once_leave_at_most_five_waiting(quiz: QuizHarness) -> None:
    await quiz.command("now")
    events = [suggestion(quiz, n) for n in range(CONCURRENT_SUGGESTIONS)]

    answers = await at_once(quiz, *events)

    waiting = await quiz.service.store.bank.pending_suggestions(workspace_of(quiz.channel))
    assert len(waiting) == MAX_PENDING_SUGGESTIONS
    thanks = [a for a in answers if a.startswith("Thanks for the suggestion")]
    refused = [a for a in answers if "suggestions waiting for review" in a]
    assert (len(thanks), len(refused)) == (MAX_PENDING_SUGGESTIONS, 7)
    assert all("the most one member may have" in a for a in refused)


async def test_grade_presses_at_once_record_one_grade_and_answer_each(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    await quiz.command("reveal")
    round_ = await quiz.round()

    answers = await at_once(
        quiz, *(grade_press(quiz, grade, round_.id) for grade in (Grade.GOOD, Grade.PARTLY))
    )

    assert all(a.startswith("Question #1") for a in answers), answers
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    current = await quiz.service.store.learning.round_grades(round_.id)
    assert list(current) == [member_id]  # one grade of the round stays the member's
    log = await quiz.service.store.learning.grade_log(member_id)
    assert [replaced for *_, replaced in log].count(False) == 1


async def test_two_practice_starts_at_once_open_one_session(quiz: QuizHarness) -> None:
    starts = [
        Command(quiz.event_id(), quiz.channel, quiz.member("bob"), "practice", ()) for _ in range(2)
    ]

    answers = await at_once(quiz, *starts)

    assert sorted(a.split(":")[0] for a in answers) == ["Practice started", "Sorry"]
    assert any(ALREADY_OPEN in a for a in answers)
    await quiz.service.settle()
    assert [m.card.title for m in quiz.platform.messages] == ["Practice question"]


async def test_an_approval_clicked_twice_at_once_approves_the_suggestion_once(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await quiz.service.handle(suggestion(quiz, 1))
    [waiting] = await quiz.service.store.bank.pending_suggestions(workspace_of(quiz.channel))
    approve = [
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, "review"),
            quiz.member("admin"),
            APPROVE_ACTION,
            f"s{waiting.id}",
        )
        for _ in range(2)
    ]

    answers = await at_once(quiz, *approve)

    assert sum(a.startswith("Approved #s") for a in answers) == 1, answers
    approved = await quiz.service.store.bank.get_suggestion(waiting.id)
    assert approved is not None and approved.state.value == "approved"
