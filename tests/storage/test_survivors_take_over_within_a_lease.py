"""When a replica sharing PostgreSQL dies holding outbox claims, another replica sends
what it held as soon as the claims' lease runs out: an idle worker never sleeps past the
end of a lease it could not know of when it last looked (the idle poll is a minute).

The worker's loop is driven by hand on the injected clock: each pass says how long the
worker would sleep, and the clock is moved there."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from storage.postgres.store import PostgresStore
from tests.fakes import SimulatedCrash
from tests.harness import QuizHarness
from tests.storage.replica_pair import Pair, two_replicas

LEASE = timedelta(seconds=10)
SLACK = timedelta(seconds=3)  # "the lease plus a few seconds"


async def held_by(pair: Pair, replica: str) -> set[str]:
    """The keys of the pending actions ``replica`` has claimed."""
    store = pair.b.service.store
    assert isinstance(store, PostgresStore)
    rows = await store.database.pooled().fetch(
        "SELECT key FROM outbox WHERE claimed_by = $1 AND state = 'pending'", replica
    )
    return {row["key"] for row in rows}


async def done_keys(pair: Pair) -> set[str]:
    store = pair.b.service.store
    assert isinstance(store, PostgresStore)
    rows = await store.database.pooled().fetch("SELECT key FROM outbox WHERE state = 'done'")
    return {row["key"] for row in rows}


async def b_completes_at(pair: Pair, keys: set[str], looked_at: datetime, sleep: float) -> datetime:
    """Runs b's outbox as its worker would (sleep, pass, sleep...) from a pass at
    ``looked_at`` that asked to sleep ``sleep`` seconds; returns when ``keys`` were done."""
    for _ in range(50):
        pair.clock.set(max(pair.clock.now(), looked_at + timedelta(seconds=sleep)))
        looked_at = pair.clock.now()
        sleep = await pair.b.service.outbox.run_once()
        if keys <= await done_keys(pair):
            return looked_at
    raise AssertionError(f"replica b never completed {sorted(keys - await done_keys(pair))}")


async def kill_a_during(a: QuizHarness, command: str) -> None:
    """``command`` on a, whose process dies in the first send its outbox then begins
    (its claim and lease are stored; nothing was sent)."""
    a.platform.failures.append(SimulatedCrash("replica a is killed"))
    with pytest.raises(SimulatedCrash):
        await a.command(command)


@pytest.mark.parametrize(("command", "kind"), [("now", "question"), ("reveal", "outline")])
async def test_what_a_killed_replica_held_is_sent_by_another_when_its_lease_ends(
    tmp_path: Path, command: str, kind: str
) -> None:
    async with two_replicas("postgres", tmp_path, lease=LEASE) as pair:
        a, b = pair.a, pair.b
        if command == "reveal":
            await a.command("now")  # the round to reveal, sent in full
        looked_at = pair.clock.now()
        sleep = await b.service.outbox.run_once()  # b is idle: nothing pending

        await kill_a_during(a, command)
        killed_at = pair.clock.now()
        held = await held_by(pair, pair.names[0])
        assert held, "replica a held no claim when it was killed"
        key = f"round:{(await b.round()).id}:{kind}"

        done_at = await b_completes_at(pair, held | {key}, looked_at, sleep)

        assert done_at - killed_at <= LEASE + SLACK, (
            f"replica b took over {sorted(held)} {(done_at - killed_at).total_seconds():.0f} s"
            f" after replica a was killed; its lease was {LEASE.total_seconds():.0f} s"
        )
        assert done_at - killed_at >= LEASE  # not while a's lease still held them
        assert any(m.key == key for m in pair.platform.messages)
        await b.service.settle()
        sent = Counter(m.key for m in pair.platform.messages)
        assert [k for k, times in sent.items() if times > 1] == []
