"""An erasure taken by one replica sharing PostgreSQL is followed by the other: its
reminder job of the member goes (NOTIFY of the erasing transaction), and nothing of the
member is left for either replica to send or show."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.harness import QuizHarness
from tests.storage.replica_pair import two_replicas, until


def next_reminder(quiz: QuizHarness, member_id: int) -> datetime | None:
    scheduler = quiz.service.reminders.scheduler
    assert scheduler is not None
    return scheduler.next_run(member_id)


async def test_the_other_replica_drops_an_erased_members_reminder(tmp_path: Path) -> None:
    async with two_replicas("postgres", tmp_path, background=(True, True)) as pair:
        a, b = pair.a, pair.b
        await a.command("remind 08:30 Europe/Berlin", by="ann")
        await a.command("goal 2031-06-01", by="ann")
        ann = await a.service.store.members.member_id(a.member("ann"))
        assert await until(lambda: next_reminder(b, ann) is not None)
        assert next_reminder(b, ann) == datetime(2031, 1, 15, 7, 30, tzinfo=UTC)

        await a.command("forget me confirm", by="ann")

        assert next_reminder(a, ann) is None
        assert await until(lambda: next_reminder(b, ann) is None), (
            "replica b still reminds a member erased on replica a"
        )
        assert await b.service.store.learning.goal(ann) is None
