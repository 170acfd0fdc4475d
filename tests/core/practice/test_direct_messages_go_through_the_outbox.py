"""Practice messages in the DMs are outbox actions of no round: recorded before they are
sent, sent once, and neither lost nor repeated across a crash."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.practice._cards import practice_value
from questions.catalog import Catalog
from tests.core.practice.test_practice_sessions import press_grade, write
from tests.fakes import FakeClock, FakePlatform, SimulatedCrash
from tests.harness import QuizHarness, running_service


def direct_rows(db_path: Path) -> list[tuple[str, str, str, str]]:
    """(key, kind, state, target channel) of every outbox action without a round."""
    with closing(sqlite3.connect(db_path)) as conn:
        return conn.execute(
            "SELECT key, kind, state, target_channel FROM outbox WHERE round_id IS NULL ORDER BY id"
        ).fetchall()


def dm_titles(platform: FakePlatform, member: str) -> list[str]:
    return [m.card.title for m in platform.messages if m.channel.channel_id == f"D-{member}"]


async def restarted(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> list[str]:
    """A fresh service on the same database settles; the keys it sent."""
    before = len(platform.messages)
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    return [m.key for m in platform.messages[before:]]


async def test_every_practice_step_is_an_outbox_action(
    quiz: QuizHarness, db_path: Path, platform: FakePlatform
) -> None:
    await quiz.command("practice networking", by="ann")  # one follow-up in the sample pack
    assert direct_rows(db_path) == [("practice:1:question", "direct", "done", "D-ann")]
    await write(quiz, "ann", "my answer")
    await write(quiz, "ann", "my follow-up answer")
    await press_grade(quiz, "ann", "grade_good", practice_value(1))
    await write(quiz, "ann", "hello?")  # no session: the help text
    rows = direct_rows(db_path)
    assert [row[0] for row in rows[:4]] == [
        "practice:1:question",
        "practice:1:follow-up:1",
        "practice:1:outline",
        "practice:1:graded",
    ]
    assert rows[4][0].startswith("dm-help:")
    assert {(kind, state, target) for _, kind, state, target in rows} == {
        ("direct", "done", "D-ann")
    }
    assert [m.key for m in platform.messages] == [row[0] for row in rows]


async def test_a_crash_after_sending_a_practice_question_does_not_send_it_again(
    quiz: QuizHarness, db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> None:
    platform.crash_after_send = True
    with pytest.raises(SimulatedCrash):
        await quiz.command("practice", by="ann")
    assert dm_titles(platform, "ann") == ["Practice question"]
    assert direct_rows(db_path)[0][2] == "pending"  # sent, but not recorded
    await quiz.service.stop()

    assert await restarted(db_path, platform, clock, catalog) == []  # found by its key
    assert dm_titles(platform, "ann") == ["Practice question"]
    assert direct_rows(db_path)[0][2] == "done"


async def test_a_crash_before_sending_a_practice_question_sends_it_after_restart(
    quiz: QuizHarness, db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> None:
    platform.failures.append(SimulatedCrash("before send"))
    with pytest.raises(SimulatedCrash):
        await quiz.command("practice", by="ann")
    assert dm_titles(platform, "ann") == []
    await quiz.service.stop()

    assert await restarted(db_path, platform, clock, catalog) == ["practice:1:question"]
    assert dm_titles(platform, "ann") == ["Practice question"]
