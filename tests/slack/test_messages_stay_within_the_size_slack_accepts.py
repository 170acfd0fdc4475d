"""Every Slack message stays within the size Slack accepts: at most 50 blocks holding at
most 12,000 characters of text (counted escaped, as sent). A message Slack still refuses
as too long (``msg_blocks_too_long``) is split further and sent again, never dropped; the
fake Slack refuses what real Slack refuses."""

from __future__ import annotations

import pytest

from adapters.slack.render import SlackMessage, render_card
from bot.kernel.refs import ChannelRef, ThreadRef
from bot.kernel.render import Card, Field
from questions.catalog import Catalog
from questions.pack import Pack
from tests.slack.driver import ADMIN, SlackQuiz
from tests.slack.fake_slack import TEAM, Posted, text_in_blocks

MESSAGE_TEXT_LIMIT = 12_000  # what Slack's blocks of one message may hold, escaped

# 3,000 escaped characters a section: 12 of them hold 36,000 in far fewer than 50 blocks
ESCAPED = " ".join(f"a<b>&{i}" for i in range(4_000))
OUTLINE = "\n\n".join(f"Step {i}: " + "shard & page the cache " * 30 for i in range(13))


def text_length(message: SlackMessage) -> int:
    return text_in_blocks(message.blocks)


def unescaped(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def words(messages: list[SlackMessage] | list[Posted]) -> list[str]:
    texts = [b["text"]["text"] for m in messages for b in m.blocks if b["type"] == "section"]
    return unescaped(" ".join(texts)).split()


def test_a_card_is_split_by_the_text_of_its_blocks_not_only_their_count() -> None:
    messages = render_card(Card(title="Long", body=ESCAPED))
    assert len(messages) > 1
    assert all(len(m.blocks) < 50 for m in messages)
    assert all(text_length(m) <= MESSAGE_TEXT_LIMIT for m in messages)
    assert words(messages) == ESCAPED.split()


def test_many_long_fields_and_a_long_footer_stay_within_the_limit() -> None:
    fields = tuple(Field(f"f{i}", "x&" * 900, inline=True) for i in range(10))
    messages = render_card(Card(title="Fields", fields=fields, footer="<" * 9_000))
    assert all(text_length(m) <= MESSAGE_TEXT_LIMIT for m in messages)
    shown = "".join(f["text"] for m in messages for b in m.blocks for f in b.get("fields", ()))
    assert shown.count("x&amp;") == 10 * 900


@pytest.fixture
def catalog() -> Catalog:
    question = {"id": "long", "topic": "gpu", "question": "Q?", "outline": OUTLINE}
    return Catalog([Pack.model_validate({"id": "p", "title": "P", "questions": [question]})])


def outline_parts(quiz: SlackQuiz) -> list[Posted]:
    return [m for m in quiz.thread() if (m.key or "").endswith(":outline")]


async def test_a_message_slack_refuses_as_too_long_is_split_and_sent(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    quiz.fake.block_text_limit = 4_000  # Slack counts more than the renderer expects
    await quiz.command("now")
    await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    parts = outline_parts(quiz)
    assert quiz.fake.too_long  # refused at first ...
    assert len(parts) >= 3 and parts[0].first  # ... then sent in pieces
    assert words(parts) == OUTLINE.split()
    channel = ChannelRef("slack", TEAM, quiz.channel)
    found = await quiz.slack.find_sent(
        channel, parts[0].key or "", thread=ThreadRef(channel, quiz.question().ts)
    )
    assert found is not None and found.message_id == parts[0].ts


async def test_a_piece_that_fails_is_sent_again_and_nothing_is_lost(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    quiz.fake.block_text_limit = 4_000
    await quiz.command("now")
    posted = quiz.fake.count("chat.postMessage")
    # after the reveal: the outline refused, its first piece sent, then a failure
    quiz.fake.failing_calls["chat.postMessage"] = {posted + 3}
    await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    quiz.clock.advance(seconds=quiz.service.config.max_retry_seconds)
    await quiz.settle()
    expected = OUTLINE.split()
    got = words(outline_parts(quiz))
    assert got[-len(expected) :] == expected  # the whole outline, in order, at the end


async def test_a_private_answer_slack_refuses_as_too_long_arrives_in_pieces(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    quiz.fake.block_text_limit = 600
    await quiz.command("help", by=ADMIN)
    assert quiz.fake.too_long and quiz.fake.responses == []
    told = [e for e in quiz.fake.ephemerals if e["user"] == ADMIN]
    assert len(told) >= 2
    shown = " ".join(b.get("text", {}).get("text", "") for e in told for b in e["blocks"])
    assert "/quiz leaderboard" in shown and "/quiz config" in shown
