"""A channel's schedule posts one question a day at most, on both backends: a schedule with
several slots a day is refused with the reason and the schedule before it kept, never
accepted to post fewer rounds than it names (three slots in one hour gave one round).
A schedule stored before this rule keeps firing at every slot (see
``test_a_schedule_keeps_firing``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.kernel.render import CardKind
from bot.settings import load_settings
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


@pytest.mark.parametrize(
    ("typed", "slots", "example"),
    [
        ("22,23,24 1 * * *", 3, "22 1 * * *"),
        ("0 9,14 * * 1-5", 2, "0 9 * * 1-5"),
        ("*/30 * * * *", 48, "0 0 * * *"),
    ],
)
async def test_several_slots_a_day_are_refused_with_the_reason(
    quiz: QuizHarness, typed: str, slots: int, example: str
) -> None:
    await quiz.command("schedule weekdays 09:30 Europe/Berlin")

    refused = await quiz.command(f"schedule {typed} UTC")

    assert refused.card.kind is CardKind.ERROR
    assert f"posts {slots} questions a day: one question a day at most" in refused.card.body
    assert f"'{example}'" in refused.card.body
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    assert (channel.schedule, channel.timezone) == ("weekdays 09:30", "Europe/Berlin")


@pytest.mark.parametrize("typed", ["22 1 * * *", "0 9 */2 * *", "30 8 * * mon-fri"])
async def test_one_slot_a_day_is_taken(quiz: QuizHarness, typed: str) -> None:
    changed = await quiz.command(f"schedule {typed} UTC")
    assert changed.card.kind is not CardKind.ERROR, changed.card.body
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None and channel.schedule == typed


def test_a_default_schedule_of_several_slots_a_day_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the command line names the setting of any refused value (tests/cli)
    monkeypatch.setenv("QUIZBOT_DEFAULT_SCHEDULE", "0 9,17 * * *")
    with pytest.raises(ValidationError, match="default_schedule") as refused:
        load_settings()
    assert "posts 2 questions a day: one question a day at most" in str(refused.value)
