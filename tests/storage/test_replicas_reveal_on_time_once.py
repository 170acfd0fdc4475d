"""The timed steps of a round are outbox actions like any other: with two replicas on one
PostgreSQL database both running their outbox when the reveal-after time and the last
call come, the outline is posted once and each member with notices on gets each message
once; the same after a replica dies with the step claimed (the other takes it over)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

from tests.storage.replica_pair import two_replicas


async def test_two_replicas_reveal_on_time_and_notify_once(tmp_path: Path) -> None:
    async with two_replicas("postgres", tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("config reveal-after 2h")
        await a.command("config last-call 30m")
        for name in ("ann", "bob", "cid"):
            await b.command("notify on", by=name)
        await a.command("now", settle=False)
        await b.service.settle()
        await a.service.settle()

        pair.clock.advance(hours=1, minutes=31)  # the last call
        await a.service.settle()
        await b.service.settle()
        pair.clock.advance(minutes=30)  # the reveal
        await b.service.settle()
        await a.service.settle()
        await b.service.settle()

        keys = Counter(m.key for m in pair.platform.messages)
        round_ = await a.round()
        assert keys[f"round:{round_.id}:outline"] == 1
        notices = [k for k in keys if k.startswith(("notice:", "lastcall:"))]
        assert len(notices) == 6 and all(keys[k] == 1 for k in notices)


async def test_a_reveal_claimed_by_a_dead_replica_is_taken_over_once(tmp_path: Path) -> None:
    lease = timedelta(seconds=5)
    async with two_replicas("postgres", tmp_path, lease=lease) as pair:
        a, b = pair.a, pair.b
        await a.command("config reveal-after 1h")
        await a.command("now")
        pair.clock.advance(hours=1, seconds=1)
        claimed = await a.service.store.outbox.due_actions(pair.clock.now())
        assert [x.kind.value for x in claimed] == ["reveal_due"]  # a claims it, then dies

        await b.service.settle()
        assert not [m for m in pair.platform.messages if m.key.endswith(":outline")]
        pair.clock.advance(seconds=6)  # the claim runs out
        await b.service.settle()
        await b.service.settle()

        round_ = await b.round()
        outlines = [m for m in pair.platform.messages if m.key == f"round:{round_.id}:outline"]
        assert len(outlines) == 1
