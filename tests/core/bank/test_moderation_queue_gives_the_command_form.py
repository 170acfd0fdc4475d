"""The moderation queue's footer gives the text form exactly as `/quiz review`'s help does."""

from __future__ import annotations

from pathlib import Path

from bot.features import find_subcommand
from tests.harness import QuizHarness

COMMAND_REFERENCE = (Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8")


def decision_form() -> str:
    """The form of a decision: `/quiz review` with its optional action given."""
    review = find_subcommand("review")
    assert review is not None
    given = review.form().removeprefix("/quiz review [").removesuffix("]")
    assert given != review.form()  # the action is optional: the queue alone shows it
    return f"/quiz review {given}"


async def test_the_moderation_queue_footer_gives_the_registry_form(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.command("flag the outline is wrong", by="bob")

    queue = await quiz.command("review")

    assert queue.card.footer is not None
    assert f"Text form: {decision_form()} (" in queue.card.footer


def test_the_command_reference_gives_the_same_form() -> None:
    assert f"| `{decision_form().replace('|', chr(92) + '|')}` |" in COMMAND_REFERENCE
