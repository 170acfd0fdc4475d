"""The practice choice reads the member's cards and a count of their recent grades, not
their whole grade log, and still chooses exactly what the choice computed from the whole
log chose (``tests/practice_reference.py``), on a seeded history with changed channel
grades, at moments inside and after it, on both backends."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning.service import LearningService, RoundToGrade
from bot.learning.store import LearningStore
from bot.store import Store
from questions.catalog import QuestionKey
from tests import practice_reference
from tests.storage.backends import BACKENDS, open_store

START = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
DAYS = 45
TOPICS = ("gpu", "networking", "memory", "storage")


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


class NoGradeLog:
    """The learning store, except that reading a member's whole grade log fails."""

    def __init__(self, store: LearningStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def grade_log(self, member_id: int) -> list[tuple[int, Grade, datetime, bool]]:
        raise AssertionError("a practice choice read the member's whole grade log")


async def seeded_history(store: Store) -> tuple[LearningService, int, list[datetime]]:
    """40 questions; a member who practises 0-4 of them a day for 45 days and grades a
    channel round every fifth day, changing that grade a day later; another member with
    grades of their own. Returns the service, the member and the times of their grades."""
    keys = [QuestionKey("p", f"q{n}", TOPICS[n % len(TOPICS)], f"h{n}") for n in range(40)]
    ids = await store.rounds.sync_questions(keys)
    topics = {ids[("p", key.question)]: key.topic for key in keys}
    questions = sorted(topics)
    learning = LearningService(store.learning, lambda: topics)
    channel = await store.channels.create_channel(
        ChannelSettings(0, ChannelRef("fake", "team", "C1"), "UTC")
    )
    alice = await store.members.member_id(MemberRef("fake", "team", "U1", "Alice"))
    bob = await store.members.member_id(MemberRef("fake", "team", "U2", "Bob"))
    rng = random.Random(12)
    graded: list[datetime] = []
    for day in range(DAYS):
        morning = START + timedelta(days=day)
        for _ in range(rng.randrange(5)):
            at = morning + timedelta(minutes=rng.randrange(12 * 60))
            grade = rng.choice(list(Grade))
            await learning.grade(alice, rng.choice(questions), grade, at)
            graded.append(at)
        await learning.grade(bob, rng.choice(questions), Grade.GOOD, morning)
        if day % 5 == 0:
            question = rng.choice(questions)
            round_ = await store.rounds.create_round(
                channel.id,
                lambda _, q=question: q,  # type: ignore[misc]
                morning,
                scheduled=True,
                created_at=morning,
                actions=[ActionKind.QUESTION],
            )
            assert round_ is not None
            to_grade = RoundToGrade(round_.id, channel.id, question, revealed=True)
            await learning.grade_round(to_grade, alice, Grade.MISSED, morning)
            await learning.grade_round(
                to_grade, alice, Grade.GOOD, morning + timedelta(days=1)
            )  # replaces it, keeping its time
            graded.append(morning)
    return learning, alice, graded


async def test_the_choice_is_the_one_computed_from_the_whole_grade_log(store: Store) -> None:
    learning, alice, graded = await seeded_history(store)
    fast = LearningService(NoGradeLog(store.learning), learning._question_topics)
    first = min(graded)
    moments = [START + timedelta(days=d, hours=19) for d in range(0, DAYS + 40, 4)]
    # the window's edges exactly: a grade's own time, and four weeks after one
    moments += [first, graded[len(graded) // 2], first + timedelta(days=28), max(graded)]
    compared = 0
    for goal in (None, 10, 150):
        for at in moments:
            await learning.set_goal(
                alice, None if goal is None else (at + timedelta(days=goal)).date()
            )
            assert await fast.pace(alice, at) == await practice_reference.pace(learning, alice, at)
            for topic in (None, "gpu"):
                expected = await practice_reference.choose_practice(
                    learning, alice, at, topic=topic
                )
                assert await fast.choose_practice(alice, at, topic=topic) == expected, (
                    goal,
                    at,
                    topic,
                )
                compared += expected is not None
    assert compared > 60


async def test_a_member_without_grades_has_no_pace(store: Store) -> None:
    learning, _, _ = await seeded_history(store)
    carol = await store.members.member_id(MemberRef("fake", "team", "U3", "Carol"))
    assert await learning.pace(carol, START + timedelta(days=DAYS)) == 0.0
    assert await learning.pace(carol, START - timedelta(days=1)) == 0.0
