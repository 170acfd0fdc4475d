"""The recap's recall line: at each past moment, the members' cards rebuilt from the grades
they had given by then, not today's cards looked at backwards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import cast

import pytest

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning.service import LearningService
from bot.learning.store import LearningStore

START = datetime(2026, 10, 5, 9, tzinfo=UTC)
ALICE, BOB = 1, 2
GPU_QUESTION, RDMA_QUESTION, UNLISTED_QUESTION = 11, 12, 13
LOGS: dict[int, list[tuple[int, Grade, datetime, bool]]] = {
    ALICE: [
        (GPU_QUESTION, Grade.MISSED, START, False),
        (RDMA_QUESTION, Grade.MISSED, START + timedelta(days=1), True),  # replaced by:
        (RDMA_QUESTION, Grade.GOOD, START + timedelta(days=1), False),
        (GPU_QUESTION, Grade.NAILED, START + timedelta(days=14), False),
    ],
    BOB: [(UNLISTED_QUESTION, Grade.NAILED, START, False)],  # no topic here: not counted
}


class GradeLogs:
    async def grade_log(self, member_id: int) -> list[tuple[int, Grade, datetime, bool]]:
        return LOGS.get(member_id, [])


def learning() -> LearningService:
    topics = {GPU_QUESTION: "gpu", RDMA_QUESTION: "rdma"}
    return LearningService(cast(LearningStore, GradeLogs()), lambda: topics)


async def test_each_point_is_the_cards_of_the_grades_known_at_that_moment() -> None:
    before, between, after = (
        START - timedelta(days=7),
        START + timedelta(days=7),
        START + timedelta(days=21),
    )
    points = await learning().members_recall({ALICE, BOB}, [before, between, after])

    gpu_then = memory_model.replay(GPU_QUESTION, [(Grade.MISSED, START)])
    gpu_now = memory_model.replay(
        GPU_QUESTION, [(Grade.MISSED, START), (Grade.NAILED, START + timedelta(days=14))]
    )
    rdma = memory_model.replay(RDMA_QUESTION, [(Grade.GOOD, START + timedelta(days=1))])
    assert points[0] is None  # nobody had graded anything yet
    assert points[1] == pytest.approx(
        (memory_model.recall(gpu_then, between) + memory_model.recall(rdma, between)) / 2
    )
    assert points[2] == pytest.approx(
        (memory_model.recall(gpu_now, after) + memory_model.recall(rdma, after)) / 2
    )
    # the later "nailed" is not known at the middle point: it would have raised it
    assert points[1] != pytest.approx(
        (memory_model.recall(gpu_now, between) + memory_model.recall(rdma, between)) / 2
    )


async def test_no_member_or_no_grade_has_no_point() -> None:
    moments = [START, START + timedelta(days=7)]
    assert await learning().members_recall(set(), moments) == [None, None]
    assert await learning().members_recall({BOB}, moments) == [None, None]
