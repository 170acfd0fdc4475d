"""Two replicas on one store post a season's champions once: both handle the turn (each
runs the channel's schedules), one records it; and on PostgreSQL, a replica killed during
the post, before or after the platform took it, is taken over by the other when its lease
ends, which neither loses nor doubles it."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.feature import ChannelSchedule
from tests.fakes import SimulatedCrash
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import Pair, two_replicas
from tests.storage.test_survivors_take_over_within_a_lease import LEASE, b_completes_at

TURN = datetime(2031, 2, 1, 0, 0, tzinfo=UTC)  # the replicas' clock starts 15 January 2031


async def seed_january(pair: Pair) -> int:
    """A round in January answered by Ann; the channel's id."""
    a = pair.a
    await a.command("schedule daily 09:00 UTC")
    await a.command("now")
    await a.answer("ann", "shard the KV cache by head")
    channel = await a.service.engine.channel(a.channel)
    assert channel is not None
    return channel.id


async def fire_turn(replica: QuizHarness, channel_id: int) -> None:
    [season] = [
        s
        for s in replica.service.schedules
        if isinstance(s, ChannelSchedule) and s.kind == "season"
    ]
    await season.on_slot(channel_id, TURN)


def season_posts(pair: Pair) -> Counter[str]:
    return Counter(m.key for m in pair.platform.messages if m.key.startswith("season:"))


@pytest.mark.parametrize("backend", BACKENDS)
async def test_both_replicas_handle_the_turn_and_one_post_goes_out(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        channel_id = await seed_january(pair)
        pair.clock.set(TURN)
        await fire_turn(pair.a, channel_id)
        await fire_turn(pair.b, channel_id)
        await pair.b.service.settle()
        await pair.a.service.settle()
        assert season_posts(pair) == Counter({f"season:{channel_id}:2031-01": 1})
        [post] = [m for m in pair.platform.messages if m.key.startswith("season:")]
        assert [f.value for f in post.card.fields] == ["Ann: 15 points"]


@pytest.mark.parametrize("after_send", [False, True], ids=["before-send", "after-send"])
async def test_a_replica_killed_during_the_post_neither_loses_nor_doubles_it(
    tmp_path: Path, after_send: bool
) -> None:
    async with two_replicas("postgres", tmp_path, lease=LEASE) as pair:
        channel_id = await seed_january(pair)
        await pair.b.service.settle()
        await pair.a.service.settle()
        looked_at = pair.clock.now()
        sleep = await pair.b.service.outbox.run_once()  # b is idle: nothing pending
        pair.clock.set(max(TURN, pair.clock.now()))
        await fire_turn(pair.a, channel_id)
        if after_send:
            pair.platform.crash_after_send = True
        else:
            pair.platform.failures.append(SimulatedCrash("replica a is killed"))
        with pytest.raises(SimulatedCrash):
            await pair.a.service.outbox.run_once()
        key = f"season:{channel_id}:2031-01"
        assert season_posts(pair)[key] == (1 if after_send else 0)

        await b_completes_at(pair, {key}, max(looked_at, pair.clock.now()), sleep)
        assert season_posts(pair) == Counter({key: 1})
        assert pair.clock.now() - TURN >= LEASE - timedelta(seconds=1)
