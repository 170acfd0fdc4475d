"""The coach's practice card decided with its buttons, on both store backends: Accept
records the grade the coach's ticks propose as the member's practice grade, once; Edit
ticks records the edited grade; Dismiss records none; a second press, or one after the
outline's grade, is refused; nothing enters the memory model before Accept or Edit, and
practice earns no points."""

from __future__ import annotations

from bot.coaching.cards import ACCEPT_ACTION, DISMISS_ACTION, EDIT_ACTION
from bot.coaching.decisions import COVERED, TICKS_FORM
from bot.coaching.practice_store import ReadingState
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.kernel.render import Response
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS
from tests.core.coaching.test_the_coach_in_private_practice import dm, dm_cards, write
from tests.harness import QuizHarness


async def answered(quiz: QuizHarness, server: ScriptedEndpoint) -> str:
    """Ann's practice answered and its outline out; the coach's card's value."""
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")
    server.queue(ticks(*STRONG_TICKS))  # 2 of 3 key points: proposes partly
    await quiz.command("practice", by="ann")
    await write(quiz, "ann", STRONG)
    await write(quiz, "ann", "A tree halves the latency.")
    [card] = [c for c in dm_cards(quiz, "ann") if c.title == "The coach read your practice answer"]
    return card.buttons[0].value


async def press(quiz: QuizHarness, action: str, value: str, by: str = "ann") -> Response | None:
    channel = dm(quiz, by)
    event = ButtonPress(
        quiz.event_id(), channel, MessageRef(channel, "m-card"), quiz.member(by), action, value
    )
    response = await quiz.service.handle(event)
    await quiz.service.settle()
    return response


async def grades(quiz: QuizHarness) -> list[Grade]:
    member = await quiz.service.store.members.member_id(quiz.member("ann"))
    return [grade for _, grade, _, _ in await quiz.service.store.learning.grade_log(member)]


async def state(quiz: QuizHarness, value: str) -> ReadingState:
    reading = await quiz.service.store.coach.practice_reading(int(value.removeprefix("r")))
    assert reading is not None
    return reading.state


def refusal(response: Response | None) -> str:
    assert response is not None
    return response.card.body


async def test_accept_records_the_proposed_grade_once(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    value = await answered(quiz, server)
    assert await grades(quiz) == []  # nothing before a decision

    assert await press(quiz, ACCEPT_ACTION, value) is None  # the DM's confirmation says it
    again = await press(quiz, ACCEPT_ACTION, value)

    assert "graded already" in refusal(again)
    assert await grades(quiz) == [Grade.PARTLY]
    assert await state(quiz, value) is ReadingState.ACCEPTED
    assert [c.title for c in dm_cards(quiz, "ann") if c.title.startswith("Practice graded")] == [
        "Practice graded: partly"
    ]
    [channel] = await quiz.service.store.channels.list_channels()
    assert await quiz.service.store.reports.leaderboard(channel.id, None) == []  # no points


async def test_edit_records_the_edited_grade(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    value = await answered(quiz, server)

    opened = await press(quiz, EDIT_ACTION, value)
    assert opened is not None and opened.form is not None
    assert opened.form.fields[0].value == "1 3"  # ticked as the coach read it
    submit = FormSubmit(
        quiz.event_id(),
        dm(quiz, "ann"),
        quiz.member("ann"),
        TICKS_FORM,
        value,
        {COVERED: "1 2 3"},
    )
    await quiz.service.handle(submit)
    await quiz.service.settle()

    assert await grades(quiz) == [Grade.NAILED]
    assert await state(quiz, value) is ReadingState.EDITED


async def test_dismiss_records_none_and_refuses_a_later_accept(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    value = await answered(quiz, server)

    dismissed = await press(quiz, DISMISS_ACTION, value)
    later = await press(quiz, ACCEPT_ACTION, value)

    assert dismissed is not None and dismissed.card.title == "Dismissed"
    assert "graded already" in refusal(later)
    assert await grades(quiz) == []
    assert await state(quiz, value) is ReadingState.DISMISSED


async def test_a_press_after_the_outlines_grade_is_refused(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    value = await answered(quiz, server)
    outline = next(c for c in dm_cards(quiz, "ann") if c.buttons and c.buttons[0].value == "p1")
    await press(quiz, outline.buttons[0].action, outline.buttons[0].value)  # missed

    late = await press(quiz, ACCEPT_ACTION, value)

    assert "graded already" in refusal(late)
    assert await grades(quiz) == [Grade.MISSED]


async def test_another_members_press_is_refused(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    value = await answered(quiz, server)

    assert "another member's" in refusal(await press(quiz, ACCEPT_ACTION, value, by="bob"))
    assert await grades(quiz) == []
