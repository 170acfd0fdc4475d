"""An answer the store could not record is kept and retried: Discord never redelivers."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import pytest

from adapters.discord.pending import PendingEvents
from bot.kernel.errors import NotRecorded
from bot.kernel.events import Event, Reaction
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef
from bot.kernel.render import Response
from tests.discord.conftest import (
    PlatformFactory,
    eventually,
    feed,
    message_payload,
    reaction_payload,
)
from tests.discord.fake_discord import FakeDiscord

ANN = 730000000000000001


@dataclass
class HealingStore:
    """A handler in front of a store that fails ``failures`` times, then records.

    Like the core, it records an event id once (``processed_events``)."""

    failures: int
    calls: int = 0
    recorded: list[str] = field(default_factory=list)

    async def __call__(self, event: Event) -> Response | None:
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise NotRecorded(event.event_id) from OSError("database or disk is full")
        if event.event_id not in self.recorded:
            self.recorded.append(event.event_id)
        return None


async def test_answers_not_recorded_are_retried_until_the_store_heals_and_count_once(
    fake: FakeDiscord, make_platform: PlatformFactory, caplog: pytest.LogCaptureFixture
) -> None:
    fake.add_member(ANN, "ann")
    store = HealingStore(failures=4)
    platform = await make_platform(store, retry_first_delay=0.01)
    question = fake.add_message(fake.channel_id, fake.bot_id, "")
    thread = fake.add_message(fake.channel_id, fake.bot_id, "")
    await platform.client.http.start_thread_with_message(
        fake.channel_id, int(thread["id"]), name="R", auto_archive_duration=1440
    )
    answer = fake.add_message(int(thread["id"]), ANN, "shard the KV cache")

    with caplog.at_level(logging.INFO):
        feed(platform, "MESSAGE_CREATE", message_payload(fake, answer))
        feed(
            platform,
            "MESSAGE_REACTION_ADD",
            reaction_payload(fake, fake.channel_id, int(question["id"]), ANN, "💡"),
        )
        feed(platform, "MESSAGE_CREATE", message_payload(fake, answer))  # a gateway replay
        await eventually(lambda: len(store.recorded) == 2)

    assert sorted(store.recorded) == sorted([answer["id"], f"reaction:{question['id']}:{ANN}:💡"])
    assert store.calls >= 6  # 4 refusals, then each event once
    assert len(platform._pending or []) == 0
    kept = [r for r in caplog.records if "keeping it in memory" in r.getMessage()]
    assert len(kept) == 1 and "database or disk is full" in kept[0].getMessage()
    assert any("accepts Discord events again" in r.getMessage() for r in caplog.records)


def _reaction(number: int) -> Reaction:
    channel = ChannelRef("discord", "1", "2")
    return Reaction(
        event_id=f"reaction:{number}",
        channel=channel,
        message=MessageRef(channel, str(number)),
        member=MemberRef("discord", "1", "3"),
        emoji="💡",
    )


async def test_a_full_memory_drops_the_oldest_with_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = HealingStore(failures=1_000_000)
    healed = False

    async def wait(seconds: float) -> None:
        if healed:
            store.failures = 0

    pending = PendingEvents(store, limit=3, first_delay=0.0, sleep=wait)
    with caplog.at_level(logging.WARNING):
        for number in range(5):
            await pending.deliver(_reaction(number))
        assert len(pending) == 3
        assert pending.dropped == 2
        healed = True
        await eventually(lambda: len(store.recorded) == 3)

    assert store.recorded == ["reaction:2", "reaction:3", "reaction:4"]
    drops = [r for r in caplog.records if "dropping the oldest" in r.getMessage()]
    assert len(drops) == 1 and "reaction:0" in drops[0].getMessage()
    await pending.close()


async def test_events_still_kept_at_stop_are_reported_lost(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = HealingStore(failures=1_000_000)
    pending = PendingEvents(store, first_delay=0.01)
    await pending.deliver(_reaction(1))

    with caplog.at_level(logging.ERROR):
        await pending.close()

    assert any("1 Discord event(s)" in r.getMessage() for r in caplog.records)
    assert len(pending) == 0
