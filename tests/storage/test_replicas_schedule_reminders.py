"""A ``/quiz remind`` taken by one replica sharing PostgreSQL is scheduled on every
replica (NOTIFY, and the minute's check as the safety net), so the reminder is sent
whichever replica is up at its time, and once when several are."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.kernel.grades import Grade
from tests.harness import QuizHarness
from tests.storage.replica_pair import drop_listener, sync_of, two_replicas, until

MEMBERS = [f"member{n}" for n in range(30)]


def next_reminder(quiz: QuizHarness, member_id: int) -> datetime | None:
    scheduler = quiz.service.reminders.scheduler
    assert scheduler is not None
    return scheduler.next_run(member_id)


async def fire_reminders(quiz: QuizHarness, member_id: int, slot: datetime) -> None:
    """The replica's reminder job of ``member_id``'s time fires at ``slot`` (it hands the
    slot to every member of that time), then its outbox runs."""
    quiz.clock.set(slot)
    scheduler = quiz.service.reminders.scheduler
    assert scheduler is not None
    job = scheduler.job_for(member_id)
    assert job is not None, f"replica has no reminder job for member {member_id}"
    await job.func(*job.args)
    await quiz.service.settle()


def reminders_sent(quiz: QuizHarness) -> Counter[str]:
    """How many reminders each member's DM channel got."""
    return Counter(
        m.channel.channel_id for m in quiz.platform.messages if m.card.title == "Time to review"
    )


async def test_a_reminder_set_on_one_replica_is_scheduled_on_the_other(tmp_path: Path) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("remind 08:30 Europe/Berlin", by="ann")
        ann = await a.service.store.members.member_id(a.member("ann"))
        assert next_reminder(a, ann) == datetime(2031, 1, 15, 7, 30, tzinfo=UTC)

        assert await until(lambda: next_reminder(b, ann) is not None), (
            "replica b never scheduled the reminder a took"
        )
        assert next_reminder(b, ann) == datetime(2031, 1, 15, 7, 30, tzinfo=UTC)

        await a.command("remind 20:00", by="ann")
        assert await until(
            lambda: next_reminder(b, ann) == datetime(2031, 1, 15, 19, 0, tzinfo=UTC)
        ), "replica b still reminds at the old time"

        await a.command("remind off", by="ann")
        assert await until(lambda: next_reminder(b, ann) is None), (
            "replica b still reminds after the member turned it off"
        )


async def test_reminders_taken_by_a_replica_that_is_down_are_sent_by_another_once(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        question = (await a.round()).question_id
        ids = []
        due = []
        for name in MEMBERS:
            await a.command("remind 08:30 UTC", by=name)
            member_id = await a.service.store.members.member_id(a.member(name))
            graded = await a.service.learning.grade(
                member_id, question, Grade.MISSED, pair.clock.now()
            )
            ids.append(member_id)
            due.append(graded.card.due)
        day = (max(due) + timedelta(days=1)).date()
        slot = datetime(day.year, day.month, day.day, 8, 30, tzinfo=UTC)
        assert await until(lambda: all(next_reminder(b, m) is not None for m in ids)), (
            f"replica b scheduled {sum(next_reminder(b, m) is not None for m in ids)}"
            f" of the {len(ids)} reminders a took"
        )

        # both replicas up: both fire the slot, each member gets one reminder
        await fire_reminders(a, ids[0], slot)
        await fire_reminders(b, ids[0], slot)
        await a.service.settle()
        assert reminders_sent(a) == Counter({f"D-{name}": 1 for name in MEMBERS})

        # the replica that took them is down the next day: the other sends them
        await a.service.stop()
        await fire_reminders(b, ids[0], slot + timedelta(days=1))
        assert reminders_sent(b) == Counter({f"D-{name}": 2 for name in MEMBERS})


async def test_a_reminder_set_while_not_listening_is_scheduled_at_the_check(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await drop_listener(pair)
        await a.command("remind 08:30 UTC", by="ann")  # its notice is lost
        ann = await a.service.store.members.member_id(a.member("ann"))
        assert next_reminder(b, ann) is None

        assert await sync_of(b).reconcile() == 1  # the minute's check

        assert next_reminder(b, ann) == datetime(2031, 1, 15, 8, 30, tzinfo=UTC)
        await drop_listener(pair)
        await a.command("remind off", by="ann")  # its notice is lost too

        assert await sync_of(b).reconcile() == 1  # the row is gone
        assert next_reminder(b, ann) is None, "the check missed a reminder turned off"
