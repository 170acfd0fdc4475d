"""A channel's pairing slot (``/quiz pair schedule``) is stored and followed by every
replica sharing PostgreSQL (NOTIFY, and the minute's check as the safety net), as a
reminder is: the channel is paired at its own slot whichever replica is up then, and once
when several are. A slot a replica fires before it heard of a change (on either backend)
is checked against the stored setting: pairing turned off, or moved to another time, pairs
nobody at the old slot."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import drop_listener, sync_of, two_replicas, until

# the replicas' clock starts on Wednesday 2031-01-15 06:00 UTC (week 2031-W03)
FRIDAY_9 = datetime(2031, 1, 17, 9, 0, tzinfo=UTC)
TUESDAY_10 = datetime(2031, 1, 21, 10, 0, tzinfo=UTC)  # week 2031-W04
THURSDAY_10 = datetime(2031, 1, 23, 10, 0, tzinfo=UTC)
MEMBERS = ("ann", "bob")


async def channel_id(quiz: QuizHarness) -> int:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    return channel.id


def next_pairing(quiz: QuizHarness, channel: int) -> datetime | None:
    scheduler = quiz.service.schedulers.get("pair")
    assert scheduler is not None
    return scheduler.next_run(channel)


async def fire_pairing(quiz: QuizHarness, channel: int, slot: datetime) -> None:
    """The replica's pairing job fires at ``slot`` (it hands the slot due at the clock's
    time to the channels of that slot), then its outbox runs."""
    quiz.clock.set(slot)
    scheduler = quiz.service.schedulers.get("pair")
    assert scheduler is not None
    job = scheduler.job_for(channel)
    assert job is not None, f"replica has no pairing job for channel {channel}"
    await job.func(*job.args)
    await quiz.service.settle()


def intros(quiz: QuizHarness) -> Counter[str]:
    """How many pairing intros each week got."""
    return Counter(
        m.card.body.split("(")[1].split(")")[0]
        for m in quiz.platform.messages
        if m.card.title == "Mock interview of the week"
    )


async def test_a_pair_schedule_set_on_one_replica_is_followed_by_the_other(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("pair schedule fri 09:00")
        channel = await channel_id(a)
        assert next_pairing(a, channel) == FRIDAY_9

        assert await until(lambda: next_pairing(b, channel) == FRIDAY_9), (
            f"replica b pairs the channel at {next_pairing(b, channel)}, not at its slot"
        )

        await a.command("pair schedule off")
        assert await until(lambda: next_pairing(b, channel) is None), (
            "replica b still pairs the channel after its pairing was turned off"
        )


async def test_the_pairing_of_a_replica_that_is_down_is_taken_over_once(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("pair schedule fri 09:00")
        for name in MEMBERS:
            await a.command("pair on", by=name)
        channel = await channel_id(a)
        assert await until(lambda: next_pairing(b, channel) == FRIDAY_9)

        # both up: both fire the slot, the week is paired once
        await fire_pairing(a, channel, FRIDAY_9)
        await fire_pairing(b, channel, FRIDAY_9)
        await a.service.settle()
        assert intros(a) == Counter({"2031-W03": 1})

        # the replica that took the schedule is down the next week: the other pairs
        await a.service.stop()
        await fire_pairing(b, channel, FRIDAY_9.replace(day=24))
        assert intros(b) == Counter({"2031-W03": 1, "2031-W04": 1})


async def test_a_pair_schedule_set_while_not_listening_is_followed_at_the_check(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("pair schedule fri 09:00")
        channel = await channel_id(a)
        assert await until(lambda: next_pairing(b, channel) == FRIDAY_9)
        await drop_listener(pair)
        await a.command("pair schedule off")  # its notices are lost

        await sync_of(b).reconcile()  # the minute's check

        assert next_pairing(b, channel) is None, "the check missed a pairing turned off"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_slot_fired_before_a_replica_heard_of_a_change_pairs_nobody(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("pair schedule tue 10:00")
        for name in MEMBERS:
            await a.command("pair on", by=name)
        channel = await channel_id(a)
        await a.command("pair schedule off")

        # b still has the slot it knew: it fires, and finds pairing turned off
        pair.clock.set(TUESDAY_10)
        await b.service.pairings.on_slot(channel, TUESDAY_10)
        await b.service.settle()
        assert intros(b) == Counter(), "a channel whose pairing is off was paired"

        # moved to Thursday: Tuesday's slot pairs nobody, Thursday's pairs the week once
        await a.command("pair schedule thu 10:00")
        await b.service.pairings.on_slot(channel, TUESDAY_10)
        await b.service.settle()
        assert intros(b) == Counter(), "the channel was paired at its old slot"
        pair.clock.set(THURSDAY_10)
        await b.service.pairings.on_slot(channel, THURSDAY_10)
        await b.service.settle()
        assert intros(b) == Counter({"2031-W04": 1})
