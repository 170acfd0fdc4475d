"""Texts beyond Slack's limits are split across blocks and messages, and member text never pings."""

from __future__ import annotations

import re

import pytest

from bot.kernel.refs import ChannelRef, ThreadRef
from questions.catalog import Catalog
from questions.pack import Pack
from tests.slack.conftest import StartSlackQuiz
from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM, Posted

LONG_QUESTION = " ".join(f"q{i} <b> & x" for i in range(900))  # ~10 000 characters
LONG_OUTLINE = "\n\n".join(f"Paragraph {i}: " + "detail " * 400 for i in range(60))  # ~170 000


@pytest.fixture
def catalog() -> Catalog:
    pack = Pack.model_validate(
        {
            "id": "long",
            "title": "Long texts",
            "questions": [
                {
                    "id": "huge",
                    "topic": "gpu",
                    "question": LONG_QUESTION,
                    "outline": LONG_OUTLINE,
                    "follow_ups": ["Why?"],
                }
            ],
        }
    )
    return Catalog([pack])


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _words(posts: list[Posted]) -> list[str]:
    """The words of every section, in order (headers and context lines left out)."""
    sections = [
        b["text"]["text"] for p in posts for b in p.blocks if b["type"] == "section" and "text" in b
    ]
    return _unescape(" ".join(sections)).split()


async def test_a_long_question_and_outline_are_split_and_nothing_is_lost(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    question = quiz.question()
    question_parts = quiz.fake.with_key(question.key or "")
    assert len(question_parts) == 2  # its text is longer than one message holds
    assert _words(question_parts) == LONG_QUESTION.split()
    assert all(len(t) <= 3000 for m in question_parts for t in m.block_texts())

    await quiz.react("bulb", by="U1", ts=question.ts)
    outline_parts = [m for m in quiz.thread() if m.key and m.key.endswith(":outline")]
    assert len(outline_parts) >= 2  # more than 50 blocks: several messages
    assert all(len(m.blocks) <= 50 for m in outline_parts)
    assert all(len(t) <= 3000 for m in outline_parts for t in m.block_texts())
    assert outline_parts[0].blocks[0]["text"]["text"] == "Sample answer outline"
    assert _words(outline_parts) == LONG_OUTLINE.split()


async def test_a_split_message_is_found_by_its_first_part_after_a_crash(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    parts = [m for m in quiz.thread() if m.key and m.key.endswith(":outline")]
    channel = ChannelRef("slack", TEAM, quiz.channel)
    thread = ThreadRef(channel, quiz.question().ts)
    found = await quiz.slack.find_sent(channel, parts[0].key or "", thread=thread)
    assert found is not None and found.message_id == parts[0].ts
    assert await quiz.slack.find_sent(channel, parts[0].key or "") is None  # not in the channel


async def _cut_the_outline_short(quiz: SlackQuiz) -> Posted:
    """Reveal with the outline's second part failing; its one part that went out."""
    await quiz.command("now")
    posted = quiz.fake.count("chat.postMessage")
    # after the reveal: the follow-ups, the outline's first part, then its second part fails
    quiz.fake.failing_calls["chat.postMessage"] = {posted + 3}
    await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    [cut_short] = [m for m in quiz.thread() if m.key and m.key.endswith(":outline")]
    return cut_short


async def _assert_the_outline_is_completed_once(quiz: SlackQuiz, first: Posted) -> None:
    quiz.clock.advance(seconds=quiz.service.config.max_retry_seconds)
    await quiz.settle()
    parts = [m for m in quiz.thread() if m.key and m.key.endswith(":outline")]
    assert parts[0].ts == first.ts  # the first part was not posted again
    assert len(parts) >= 2
    assert _words(parts) == LONG_OUTLINE.split()  # every word once, in order


async def test_a_split_message_cut_short_is_resumed_without_repeating_a_part(
    slack_quiz: SlackQuiz,
) -> None:
    first = await _cut_the_outline_short(slack_quiz)
    await _assert_the_outline_is_completed_once(slack_quiz, first)


async def test_a_split_message_cut_short_by_a_crash_is_completed_after_the_restart(
    start_slack_quiz: StartSlackQuiz,
) -> None:
    async with start_slack_quiz() as quiz:
        first = await _cut_the_outline_short(quiz)
    async with start_slack_quiz() as quiz:  # a new process: nothing in memory, the same DB
        await _assert_the_outline_is_completed_once(quiz, first)


async def test_mentions_echoed_from_members_are_escaped(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    quiz.fake.users["U7"] = {"name": "<!channel> Eve <@U123> & co"}
    await quiz.command("now")
    await quiz.reply("<!here> @here <@U0ADMIN> answer", by="U7")
    await quiz.command("leaderboard all public", by="U7")
    board = quiz.fake.posts(quiz.channel)[-1]
    shown = "\n".join(board.block_texts())
    assert "&lt;!channel&gt; Eve &lt;@U123&gt; &amp; co" in shown
    raw = str([m.blocks for m in quiz.fake.messages]) + str([m.text for m in quiz.fake.messages])
    raw += str(quiz.fake.ephemerals)
    assert not re.search(r"<[!@#]", raw)
