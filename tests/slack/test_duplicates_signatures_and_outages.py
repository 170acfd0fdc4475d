"""Duplicates, signatures, rate limits, crashes, unavailable channels, admins."""

from __future__ import annotations

import time
from types import SimpleNamespace

import aiohttp
import pytest
from slack_sdk.http_retry import builtin_async_handlers

from adapters.slack.connector import SlackPlatform
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.fakes import SimulatedCrash
from tests.slack.driver import LISTED_ADMIN, SlackQuiz
from tests.slack.fake_slack import TEAM
from tests.slack.signed import JSON, event_body, signed_headers


async def test_the_same_event_delivered_twice_is_acked_and_counted_once(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    event = {
        "type": "message",
        "channel": quiz.channel,
        "user": "U1",
        "text": "my answer",
        "ts": quiz.member_ts(),
        "thread_ts": quiz.question().ts,
    }
    first = await quiz.event(event, event_id="Ev0DUP")
    again = await quiz.event(event, event_id="Ev0DUP", retry_num=1)
    assert (first.status, again.status) == (200, 200)
    assert await quiz.answer_count() == 1
    assert len(quiz.thread()) == 1  # the follow-ups, once


async def test_a_reveal_reaction_redelivered_posts_one_outline(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    for retry in (None, 1, 2):
        event = {
            "type": "reaction_added",
            "user": "U1",
            "reaction": "bulb",
            "item": {"type": "message", "channel": quiz.channel, "ts": quiz.question().ts},
        }
        response = await quiz.event(event, event_id="Ev0REVEAL", retry_num=retry)
        assert response.status == 200
    outlines = [m for m in quiz.thread() if m.block_texts()[0] == "Sample answer outline"]
    assert len(outlines) == 1


async def _post_over_http(slack: SlackPlatform, body: str, headers: dict[str, str]) -> int:
    assert slack.http_transport is not None and slack.http_transport.bound_port
    url = f"http://127.0.0.1:{slack.http_transport.bound_port}/slack/events"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=body.encode(), headers=headers) as response,
    ):
        return response.status


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({"secret": "not-the-secret"}, id="bad-signature"),
        pytest.param({"timestamp": int(time.time()) - 600}, id="stale-timestamp"),
    ],
)
async def test_requests_with_a_wrong_signature_or_timestamp_get_401(
    slack_quiz: SlackQuiz, headers: dict[str, object]
) -> None:
    quiz = slack_quiz
    event = {
        "type": "reaction_added",
        "user": "U1",
        "reaction": "bulb",
        "item": {"type": "message", "channel": quiz.channel, "ts": "1.0"},
    }
    body = event_body(event)
    signed = signed_headers(body, content_type=JSON, **headers)  # type: ignore[arg-type]
    assert await _post_over_http(quiz.slack, body, signed) == 401
    assert await _post_over_http(quiz.slack, body, signed_headers(body, content_type=JSON)) == 200
    assert quiz.fake.count("chat.postMessage") == 0


async def test_a_429_is_retried_by_the_sdk_and_posted_once(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK sleeps Retry-After plus up to a second of jitter; keep the jitter tiny.
    monkeypatch.setattr(builtin_async_handlers, "random", SimpleNamespace(random=lambda: 0.01))
    quiz = slack_quiz
    quiz.fake.rate_limited["chat.postMessage"] = 1
    await quiz.command("now")
    assert quiz.fake.count("chat.postMessage") == 2
    assert len(quiz.fake.with_key(quiz.question().key or "")) == 1


async def test_a_lasting_429_goes_back_to_the_outbox_and_is_delivered_later_once(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtin_async_handlers, "random", SimpleNamespace(random=lambda: 0.01))
    quiz = slack_quiz
    quiz.fake.rate_limited["chat.postMessage"] = 2  # the first try and the SDK's retry
    await quiz.command("now")
    assert quiz.fake.posts(quiz.channel) == []
    quiz.clock.advance(seconds=quiz.service.config.max_retry_seconds)
    await quiz.settle()
    question = quiz.question()
    assert len(quiz.fake.with_key(question.key or "")) == 1
    assert quiz.fake.count("conversations.history") == 1  # looked before re-sending


# A busy channel (500 newer messages, 250 replies) must not hide what was sent: the
# search covers the round's whole time span, not the newest few hundred messages.
@pytest.mark.parametrize("chatter", [0, 500], ids=["quiet", "busy-channel"])
async def test_a_crash_between_send_and_record_does_not_post_twice(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch, chatter: int
) -> None:
    quiz = slack_quiz
    real_post = quiz.slack.post

    async def post_then_crash(channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        await real_post(channel, card, key=key)
        raise SimulatedCrash(key)

    monkeypatch.setattr(quiz.slack, "post", post_then_crash)
    with pytest.raises(SimulatedCrash):
        await quiz.command("now")
    monkeypatch.undo()
    quiz.fake.chatter(quiz.channel, chatter)  # while the bot was down
    await quiz.settle()  # as after a restart: the pending action is tried again

    question = quiz.question()
    assert len(quiz.fake.with_key(question.key or "")) == 1
    assert quiz.fake.count("conversations.history") == 1 + chatter // 200  # page by page
    assert (quiz.channel, question.ts, "bulb") in quiz.fake.reactions  # the round went on


@pytest.mark.parametrize("chatter", [0, 250], ids=["quiet", "busy-thread"])
async def test_a_crash_after_a_thread_reply_is_found_in_the_thread(
    slack_quiz: SlackQuiz, monkeypatch: pytest.MonkeyPatch, chatter: int
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    quiz.fake.chatter(quiz.channel, chatter, thread=quiz.question().ts)
    real_reply = quiz.slack.reply

    async def reply_then_crash(thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        await real_reply(thread, card, key=key)
        raise SimulatedCrash(key)

    monkeypatch.setattr(quiz.slack, "reply", reply_then_crash)
    with pytest.raises(SimulatedCrash):
        await quiz.react("bulb", by="U1", ts=quiz.question().ts)
    monkeypatch.undo()
    await quiz.settle()

    assert [m.key for m in quiz.thread() if m.key] == ["round:1:follow_ups", "round:1:outline"]
    assert quiz.fake.count("conversations.replies") >= 1


async def test_a_channel_the_bot_is_not_in_is_disabled_with_a_reason(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    quiz.fake.channel_errors[quiz.channel] = "not_in_channel"
    await quiz.command("now")
    assert quiz.fake.posts(quiz.channel) == []
    # The ephemeral answer failed too, so it came through the command's response_url.
    assert quiz.fake.responses[0]["response_type"] == "ephemeral"

    await quiz.command("stats")
    stats = str(quiz.fake.responses[-1]["blocks"])
    assert "not_in_channel" in stats


async def test_a_member_cannot_run_an_admin_command(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now", by="U9")
    assert quiz.fake.posts(quiz.channel) == []
    [refusal] = quiz.told("U9")
    assert "admin" in refusal.lower()

    await quiz.command("now", by=LISTED_ADMIN)  # QUIZBOT_SLACK_ADMINS
    assert len(quiz.fake.posts(quiz.channel)) == 1


async def test_admin_lookups_are_cached(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    await quiz.command("pause")
    await quiz.command("resume")
    assert quiz.fake.count("users.info") == 1
    changes = [p.block_texts()[1] for p in quiz.fake.posts(quiz.channel)[1:]]
    assert changes[0].startswith("Paused") and changes[1] == "Resumed."


async def test_adding_a_reaction_that_is_already_there_is_fine(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    question = MessageRef(ChannelRef("slack", TEAM, quiz.channel), quiz.question().ts)
    await quiz.slack.react(question, "💡")  # the fake answers already_reacted
    assert quiz.fake.reactions.count((quiz.channel, question.message_id, "bulb")) == 1
