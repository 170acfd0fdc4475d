"""Any reveal emoji on Slack: Unicode, :shortcode: or a custom workspace emoji.

Slack reacts and reports reactions by short name (``unicorn_face``), never by the
Unicode character, and names custom emoji by their name. An emoji Slack cannot
react with is refused when it is configured, in the command's answer.
"""

from __future__ import annotations

import pytest

from tests.slack.driver import ADMIN, SlackQuiz


def _outlines(quiz: SlackQuiz) -> int:
    return sum(1 for m in quiz.thread() if m.block_texts()[0] == "Sample answer outline")


@pytest.mark.parametrize("typed", ["🦄", ":unicorn_face:", "unicorn_face"])
async def test_a_unicode_or_shortcode_reveal_emoji_is_added_and_reveals(
    slack_quiz: SlackQuiz, typed: str
) -> None:
    quiz = slack_quiz
    await quiz.command(f"config reveal-emoji {typed}")
    [changed] = quiz.fake.posts(quiz.channel)
    assert "React 🦄 on a question" in "\n".join(changed.block_texts())
    await quiz.command("now")
    question = quiz.question()
    assert (quiz.channel, question.ts, "unicorn_face") in quiz.fake.reactions
    await quiz.react("bulb", by="U1", ts=question.ts)
    assert _outlines(quiz) == 0
    await quiz.react("unicorn_face", by="U1", ts=question.ts)
    assert _outlines(quiz) == 1


async def test_an_emoji_with_a_variation_selector_and_skin_tones_match(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await quiz.command("config reveal-emoji ❤️")
    await quiz.command("now")
    question = quiz.question()
    assert (quiz.channel, question.ts, "heart") in quiz.fake.reactions
    await quiz.react("heart", by="U1", ts=question.ts)
    assert _outlines(quiz) == 1


async def test_a_custom_workspace_emoji_is_accepted_by_name(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    quiz.fake.custom_emoji["partyparrot"] = "https://emoji.example/partyparrot.gif"
    await quiz.command("config reveal-emoji :partyparrot:")
    await quiz.command("now")
    question = quiz.question()
    assert (quiz.channel, question.ts, "partyparrot") in quiz.fake.reactions
    await quiz.react("partyparrot", by="U1", ts=question.ts)
    assert _outlines(quiz) == 1


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        (":nosuchemoji:", "no emoji named :nosuchemoji:"),
        ("→", "cannot react with"),
        ("🦄🦄", "more than one emoji"),
    ],
)
async def test_an_emoji_slack_cannot_react_with_is_refused_in_the_answer(
    slack_quiz: SlackQuiz, typed: str, reason: str
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.command(f"config reveal-emoji {typed}")
    answer = quiz.told(ADMIN)[-1]
    assert reason in answer
    await quiz.command("now")
    question = quiz.question()
    assert (quiz.channel, question.ts, "bulb") in quiz.fake.reactions  # unchanged
