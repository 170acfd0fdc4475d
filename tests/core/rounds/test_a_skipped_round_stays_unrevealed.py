"""A round closed with `/quiz skip` never has its outline posted, even after the next
round is out: a 💡 on its question or its Reveal button changes nothing."""

from __future__ import annotations

from bot.kernel.events import ButtonPress
from bot.kernel.models import Round
from bot.kernel.refs import MessageRef
from bot.kernel.render import CardKind
from tests.fakes import FakePlatform
from tests.harness import QuizHarness

OUTLINE = "Sample answer outline"


async def _skipped_then_next(quiz: QuizHarness) -> Round:
    """`/quiz now`, `/quiz skip`, `/quiz now`: the skipped round, as stored now."""
    await quiz.command("now")
    skipped = await quiz.round()
    await quiz.command("skip")
    await quiz.command("now")
    assert (await quiz.round()).number == skipped.number + 1
    stored = await quiz.service.store.rounds.get_round(skipped.id)
    assert stored is not None and stored.question_message is not None
    return stored


async def _press_reveal(quiz: QuizHarness, round_: Round) -> CardKind:
    assert round_.question_message is not None
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, round_.question_message),
            quiz.member("bob"),
            "reveal",
            str(round_.id),
        )
    )
    await quiz.service.settle()
    assert response is not None
    return response.card.kind


async def test_a_reveal_reaction_or_button_on_a_skipped_question_posts_no_outline(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    skipped = await _skipped_then_next(quiz)

    await quiz.react("alice", "💡", message_id=skipped.question_message)
    assert not any(m.card.title == OUTLINE for m in platform.messages)
    pressed = await _press_reveal(quiz, skipped)

    assert pressed is CardKind.ERROR
    assert not any(m.card.title == OUTLINE for m in platform.messages)
    after = await quiz.service.store.rounds.get_round(skipped.id)
    assert after is not None and after.revealed_at is None


async def test_enough_reveal_reactions_on_a_skipped_question_post_no_outline(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("config reveal-reactors 2")
    skipped = await _skipped_then_next(quiz)

    for member in ("alice", "bob", "carol"):
        await quiz.react(member, "💡", message_id=skipped.question_message)

    assert not any(m.card.title == OUTLINE for m in platform.messages)
    after = await quiz.service.store.rounds.get_round(skipped.id)
    assert after is not None and after.revealed_at is None
