"""Timed practice, through the core and the fake platform on both backends, with the
injected clock: ``/quiz practice timed MINUTES`` shows the time, warns a minute before the
end, and at the end moves on to the follow-ups without an answer; an answer in time stops
the clock; the clock does nothing once the session is over."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.kernel.models import ActionKind
from bot.practice.timer import TimerStep, TimerTick, show_span, tick_of, timer_key
from questions.catalog import Catalog
from tests.core.practice.test_practice_hints import hint_in_dm
from tests.core.practice.test_practice_sessions import (
    dm_cards,
    grade_in_dm,
    press,
    session_of,
    write,
)
from tests.core.reviews.test_peer_reviews import KEY_POINTS, catalog_with_key_points
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


def titles(quiz: QuizHarness, name: str) -> list[str]:
    return [c.title for c in dm_cards(quiz, name)]


async def let_pass(quiz: QuizHarness, seconds: float) -> None:
    quiz.clock.advance(seconds=seconds)
    await quiz.service.settle()


async def follow_ups_of(quiz: QuizHarness, name: str) -> int:
    session = await session_of(quiz, name)
    assert session is not None
    question = quiz.service.engine.question_for(session.direct, session.question_id)
    assert question is not None
    return len(question.follow_ups)


async def test_the_time_runs_out_and_the_session_moves_on_to_the_follow_ups(
    quiz: QuizHarness,
) -> None:
    started = await quiz.command("practice timed 10", by="ann")
    assert "10 min to answer it" in started.card.body
    question = dm_cards(quiz, "ann")[0]
    assert question.title == "Practice question"
    assert ("Time", "10 min to answer") in [(f.name, f.value) for f in question.fields]
    assert "When the time is up, we move on to the follow-ups." in question.footer

    await let_pass(quiz, 8 * 60)
    assert titles(quiz, "ann") == ["Practice question"]  # nothing before the last minute
    await let_pass(quiz, 60)
    assert titles(quiz, "ann")[-1] == "1 minute left"
    assert await hint_in_dm(quiz, "ann") == ""
    hint = next(c for c in dm_cards(quiz, "ann") if c.title.startswith("Hint 1"))
    assert hint.body == KEY_POINTS[0] and "left to answer." in hint.footer

    await let_pass(quiz, 60)
    follow_up = dm_cards(quiz, "ann")[-1]
    assert follow_up.title.startswith("Follow-up 1 of")
    assert follow_up.body.startswith("Time's up.")
    session = await session_of(quiz, "ann")
    assert session is not None and session.timed_out and session.answers == 1

    # the late answer is the first follow-up's; the rest walks on as usual
    for _ in range(await follow_ups_of(quiz, "ann")):
        await write(quiz, "ann", "an answer")
    assert dm_cards(quiz, "ann")[-1].title == "Sample answer outline"
    await grade_in_dm(quiz, "ann", "grade good")
    graded = dm_cards(quiz, "ann")[-1]
    assert graded.title == "Practice graded: good"
    assert graded.body.startswith("The time ran out before your answer")
    await let_pass(quiz, 3600)
    assert titles(quiz, "ann").count("1 minute left") == 1  # each step once


async def test_an_answer_in_time_stops_the_clock_and_says_how_long_it_took(
    quiz: QuizHarness,
) -> None:
    await quiz.command("practice timed 5", by="bob")
    await let_pass(quiz, 3 * 60 + 12)
    await write(quiz, "bob", "my answer")
    follow_up = dm_cards(quiz, "bob")[-1]
    assert follow_up.title.startswith("Follow-up 1 of")
    assert not follow_up.body.startswith("Time's up")
    took = dict((f.name, f.value) for f in follow_up.fields)["Answered in"]
    assert took.endswith(" of 5 min") and took.startswith("3 min 1")  # the command's second

    await let_pass(quiz, 10 * 60)  # past the last minute and the end: nothing comes
    assert "1 minute left" not in titles(quiz, "bob")
    assert sum(t.startswith("Follow-up 1") for t in titles(quiz, "bob")) == 1
    session = await session_of(quiz, "bob")
    assert session is not None and not session.timed_out and session.answers == 1


async def test_a_stopped_session_hears_nothing_from_its_clock(quiz: QuizHarness) -> None:
    await quiz.command("practice timed 5", by="carol")
    await quiz.command("practice stop", by="carol")
    await let_pass(quiz, 6 * 60)
    assert titles(quiz, "carol") == ["Practice question"]


async def test_a_short_limit_has_no_last_minute_warning(quiz: QuizHarness) -> None:
    await quiz.command("practice timed 2", by="dave")
    pending = await quiz.service.store.outbox.due_actions(quiz.clock.now().replace(year=2100))
    clock = [a.key for a in pending if a.kind is ActionKind.PRACTICE_TIMER]
    session = await session_of(quiz, "dave")
    assert session is not None
    assert clock == [timer_key(session.id, TimerStep.TIME_UP)]
    await let_pass(quiz, 2 * 60)
    assert dm_cards(quiz, "dave")[-1].body.startswith("Time's up.")


async def test_next_question_keeps_the_time_limit(quiz: QuizHarness) -> None:
    await quiz.command("practice timed 7", by="erin")
    await let_pass(quiz, 7 * 60)
    for _ in range(await follow_ups_of(quiz, "erin")):
        await write(quiz, "erin", "an answer")
    await grade_in_dm(quiz, "erin", "grade partly")
    session = await session_of(quiz, "erin")
    assert session is None
    graded = dm_cards(quiz, "erin")[-1]
    (next_button,) = graded.buttons
    await press(quiz, "erin", next_button.action, next_button.value)
    renewed = await session_of(quiz, "erin")
    assert renewed is not None and renewed.time_limit_minutes == 7
    fields = [(f.name, f.value) for f in dm_cards(quiz, "erin")[-1].fields]
    assert ("Time", "7 min to answer") in fields


async def test_an_untimed_session_has_no_clock(quiz: QuizHarness) -> None:
    await quiz.command("practice", by="fay")
    question = dm_cards(quiz, "fay")[0]
    assert "Time" not in [f.name for f in question.fields]
    assert "time is up" not in question.footer
    pending = await quiz.service.store.outbox.due_actions(quiz.clock.now().replace(year=2100))
    assert [a for a in pending if a.kind is ActionKind.PRACTICE_TIMER] == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("practice timed", "Give the minutes after timed, 1 to 60"),
        ("practice timed soon", "Give the minutes after timed, 1 to 60"),
        ("practice timed 0", "whole minutes from 1 to 60, e.g. 10, not '0'"),
        ("practice timed 90", "whole minutes from 1 to 60, e.g. 10, not '90'"),
        ("practice timed 15m", "whole minutes from 1 to 60, e.g. 10, not '15m'"),
        ("practice 10", "The word timed is missing before the minutes."),
    ],
)
async def test_a_bad_time_limit_gets_the_form(quiz: QuizHarness, text: str, problem: str) -> None:
    response = await quiz.command(text, by="gus")
    assert problem in response.card.body
    assert "Use: /quiz practice [timed MINUTES]" in response.card.body
    assert await session_of(quiz, "gus") is None


def test_clock_keys_read_back_and_other_keys_are_not_ticks() -> None:
    for step in TimerStep:
        assert tick_of(timer_key(12, step)) == TimerTick(12, step)
    for key in ("practice:12:question", "practice:x:clock:time-up", "practice:1:clock:later"):
        assert tick_of(key) is None


def test_time_on_the_clock_reads_as_members_say_it() -> None:
    assert show_span(timedelta(seconds=40)) == "40 s"
    assert show_span(timedelta(minutes=10)) == "10 min"
    assert show_span(timedelta(seconds=252)) == "4 min 12 s"
    assert show_span(timedelta(seconds=-3)) == "0 s"
