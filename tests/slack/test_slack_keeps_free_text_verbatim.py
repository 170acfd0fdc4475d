"""The free text of a `/quiz` command on Slack (an answer, a flag's reason, a review's
reason) is stored exactly as typed: repeated spaces, newlines, code blocks, quotes and
backslashes; what Slack escapes (``&``, ``<``, ``>``) comes back as typed too."""

from __future__ import annotations

from bot.kernel.refs import ChannelRef
from tests.slack.driver import ADMIN, SlackQuiz
from tests.slack.fake_slack import TEAM
from tests.slack.test_slack_forms import GOOD, MEMBER

ANSWER = 'ring all-reduce:\n\n```\nfor step in range(n - 1):\n    send(x[i])  # "bandwidth"\n```'
FLAG = "the H100 has  80 GB,   not 40\n(see C:\\specs\\h100.pdf)"
REJECTION = "covered by #s1:\n  > a < b && c"


def slack_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


async def test_answers_and_reasons_keep_their_spaces_newlines_and_code(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await quiz.command("config answers blind")
    await quiz.command("now")
    await quiz.command(f"answer {ANSWER}", by=MEMBER)
    await quiz.command(f"flag  {FLAG}", by=MEMBER)
    await quiz.command("suggest", by=MEMBER)
    await quiz.submit(quiz.fake.views[-1], GOOD, by=MEMBER)
    await quiz.command(f"review reject s1 {slack_escaped(REJECTION)}", by=ADMIN)

    store = quiz.service.store
    channel = await quiz.service.engine.channel(ChannelRef("slack", TEAM, quiz.channel))
    assert channel is not None
    round_ = await store.rounds.latest_round(channel.id)
    assert round_ is not None
    [answer] = await store.answers.round_answers(round_.id)
    assert answer.text == ANSWER
    [flag] = await store.bank.flags()
    assert flag.reason == FLAG
    rejected = await store.bank.get_suggestion(1)
    assert rejected is not None and rejected.reason == REJECTION


async def test_a_command_whose_text_says_payload_is_not_dropped(slack_quiz: SlackQuiz) -> None:
    """bolt reads a form body containing the word ``payload`` as an interactivity payload
    and found none: such a command went unanswered and its text was lost."""
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.command("flag the payload=8 bytes, not 16", by=MEMBER)
    [flag] = await quiz.service.store.bank.flags()
    assert flag.reason == "the payload=8 bytes, not 16"
    assert "Thanks: flagged" in quiz.told(MEMBER)[-1]
