"""The coach's card never reaches a member before the outline it comments on: a round is
marked revealed a moment (or, when the platform fails, minutes) before its outline is
posted, and an answer the coach finishes reading in between waits for the outline, through
the outbox worker on both store backends."""

from __future__ import annotations

from bot.kernel.errors import PlatformError
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coach_cards
from tests.harness import QuizHarness


def outline_posted(quiz: QuizHarness) -> bool:
    return any(m.key.endswith(":outline") for m in quiz.platform.messages)


async def test_an_answer_read_before_the_outline_is_posted_waits_for_it(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await quiz.command("config coach on")
    await quiz.command("now")
    # the reveal's sends (its follow-ups, its outline) fail: both wait for their retry
    down = PlatformError("the platform is down for a moment")
    quiz.platform.failures.extend([down, down])
    await quiz.react("carol", "💡")
    assert (await quiz.round()).revealed_at is not None
    assert not outline_posted(quiz)
    server.queue(ticks(*STRONG_TICKS))

    await quiz.answer("ann", STRONG)  # after the reveal: read at once

    assert len(server.requests) == 1
    assert coach_cards(quiz, "ann") == []  # read, but the outline is not out yet
    quiz.clock.advance(minutes=5)
    await quiz.service.settle()
    assert outline_posted(quiz)
    [card] = coach_cards(quiz, "ann")
    keys = [m.key for m in quiz.platform.messages]
    outline = next(i for i, k in enumerate(keys) if k.endswith(":outline"))
    assert keys.index(next(m.key for m in quiz.platform.messages if m.card is card)) > outline
