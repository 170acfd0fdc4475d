"""The outbox: recorded before sending, sent once, retried with backoff, finished after a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.errors import ChannelUnavailable, PlatformError
from questions.catalog import Catalog
from storage.sqlite.store import SqliteStore
from tests.fakes import FakeClock, FakePlatform, SimulatedCrash
from tests.harness import QuizHarness, running_service


async def _restarted(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> list[str]:
    """Start a fresh service on the same database and platform; return the keys it sent."""
    before = len(platform.messages)
    async with running_service(db_path, [platform], clock, catalog, seed=1) as service:
        await service.settle()
    return [m.key for m in platform.messages[before:]]


async def test_crash_between_recording_and_sending_sends_after_restart(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    platform.failures.append(SimulatedCrash("before send"))
    with pytest.raises(SimulatedCrash):
        await quiz.command("now")
    assert platform.messages == []
    await quiz.service.stop()

    sent = await _restarted(db_path, platform, clock, catalog)
    assert sent == ["round:1:question"]
    assert len(platform.threads) == 1
    assert len(platform.reactions) == 1


async def test_crash_between_sending_and_recording_does_not_send_twice(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    platform.crash_after_send = True
    with pytest.raises(SimulatedCrash):
        await quiz.command("now")
    assert [m.key for m in platform.messages] == ["round:1:question"]
    await quiz.service.stop()

    sent = await _restarted(db_path, platform, clock, catalog)
    assert sent == []  # found by its key, not posted again
    [question] = platform.messages
    assert platform.threads == {f"t{question.id}": question.id}
    async with SqliteStore.open(db_path) as store:
        round_ = await store.rounds.get_round(1)
        assert round_ is not None and round_.question_message == question.id


async def test_crash_after_sending_the_outline_does_not_repeat_it(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "answer")
    platform.crash_after_send = True
    with pytest.raises(SimulatedCrash):
        await quiz.react("bob", "💡")
    await quiz.service.stop()
    assert await _restarted(db_path, platform, clock, catalog) == []
    assert sum(m.card.title == "Sample answer outline" for m in platform.messages) == 1


async def test_failed_send_is_retried_with_backoff_and_delivered_once(
    quiz: QuizHarness, platform: FakePlatform, clock: FakeClock
) -> None:
    platform.failures.append(PlatformError("server error"))
    await quiz.command("now")
    assert platform.messages == []
    clock.advance(seconds=1)
    await quiz.service.settle()
    assert platform.messages == []  # the first retry waits 2 s
    clock.advance(seconds=1)
    await quiz.service.settle()
    assert [m.key for m in platform.messages] == ["round:1:question"]


async def test_retry_after_hint_is_honoured(
    quiz: QuizHarness, platform: FakePlatform, clock: FakeClock
) -> None:
    platform.failures.append(PlatformError("rate limited", retry_after=30))
    await quiz.command("now")
    clock.advance(seconds=29)
    await quiz.service.settle()
    assert platform.messages == []
    clock.advance(seconds=1)
    await quiz.service.settle()
    assert len(platform.in_channel()) == 1


async def test_gives_up_after_max_attempts(
    quiz: QuizHarness, platform: FakePlatform, clock: FakeClock
) -> None:
    platform.failures.extend(PlatformError("down") for _ in range(20))
    await quiz.command("now")
    for _ in range(12):
        clock.advance(seconds=600)
        await quiz.service.settle()
    assert platform.messages == []
    [channel] = await quiz.service.store.channels.list_channels()
    stats = await quiz.service.store.reports.channel_stats(channel.id)
    assert stats.failed_actions >= 1
    assert platform.calls == QuizConfig().max_send_attempts


async def test_unavailable_channel_is_disabled_with_a_reason(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    platform.failures.append(ChannelUnavailable("channel_not_found"))
    await quiz.command("now")
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.disabled_reason == "channel_not_found"
    stats = await quiz.command("stats", by="alice")
    assert "disabled: channel_not_found" in stats.card.plain_text()
    assert await quiz.service.store.outbox.due_actions(quiz.clock.now()) == []


async def test_an_admin_command_enables_a_disabled_channel_again(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    platform.failures.append(ChannelUnavailable("not_in_channel"))
    await quiz.command("now")
    assert platform.messages == []
    await quiz.command("now")
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.disabled_reason is None
    assert [m.card.title for m in platform.in_channel()] == ["Question #2"]
