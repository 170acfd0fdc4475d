"""Every inbound event passes the same steps once, in order; errors become replies in one place."""

from __future__ import annotations

import logging

import pytest

from bot.kernel.events import Command, Reply
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import CardKind
from tests.fakes import FakePlatform
from tests.harness import QuizHarness


async def test_a_redelivered_command_is_dropped_before_the_admin_check(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    event = Command("ev-dup", quiz.channel, quiz.member("alice"), "now", ())
    first = await quiz.service.handle(event)
    second = await quiz.service.handle(event)

    assert first is not None and "needs a quiz admin" in first.card.body
    assert platform.admin_rule in first.card.body  # the platform says who is an admin
    assert second is None
    assert platform.messages == []


async def test_a_refusal_is_told_and_not_logged_as_a_failure(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        response = await quiz.command("topics enable astrology")

    assert response.card.kind is CardKind.ERROR
    assert "Unknown topic(s): 'astrology'" in response.card.body
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_an_unexpected_error_is_logged_once_with_its_channel_and_answered_plainly(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(quiz.service.store.reports, "channel_stats", broken)
    await quiz.command("now")
    with caplog.at_level(logging.ERROR):
        response = await quiz.command("stats", by="alice")

    assert response.card.kind is CardKind.ERROR
    assert "disk on fire" not in response.card.body  # internals stay in the log
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])
    assert getattr(record, "channel", None) in (quiz.channel.name, quiz.channel.channel_id)


async def test_the_bots_own_reply_is_ignored_before_anything_is_recorded(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    own = Reply(
        "ev-own",
        quiz.channel,
        ThreadRef(quiz.channel, thread),
        MessageRef(quiz.channel, "m-own"),
        quiz.member("quizbot"),
        "an echo of the bot",
        is_bot=True,
    )
    assert await quiz.service.handle(own) is None
    assert not await quiz.service.store.deliveries.event_processed(quiz.channel.platform, "ev-own")
    round_ = await quiz.round()
    assert (
        await quiz.service.store.answers.answer_by_message_in_channel(round_.channel_id, "m-own")
        is None
    )
