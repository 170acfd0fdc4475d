"""The quality-points rule: what answering earned, times the share of key points judged
covered by others, rounded half up; never more than what answering earned."""

from __future__ import annotations

import pytest

from bot.kernel.scoring import JudgedTicks, quality_points


@pytest.mark.parametrize(
    ("answer_points", "covered", "key_points", "expected"),
    [
        (15, {1, 2, 3, 4}, 5, 12),  # four of five, before the reveal
        (10, {1, 2, 3, 4}, 5, 8),  # four of five, after it
        (15, {1, 2, 3, 4, 5}, 5, 15),  # every key point: as much again
        (15, {1}, 4, 4),  # 3.75 rounds up
        (10, {1}, 4, 3),  # 2.5 rounds half up
        (15, set(), 5, 0),
        (0, {1, 2, 3, 4, 5}, 5, 0),  # a later reply earns nothing, so its quality neither
        (15, {1, 2}, 0, 0),  # a question without key points
        (15, {1, 2, 3, 9, 0}, 3, 15),  # ticks naming no key point are ignored: the cap holds
    ],
)
def test_quality_points(
    answer_points: int, covered: set[int], key_points: int, expected: int
) -> None:
    judged = JudgedTicks(reviewers=frozenset(covered))
    assert quality_points(answer_points, judged, key_points) == expected


def test_reviewers_and_the_accepted_coach_ticks_count_once_each_point() -> None:
    judged = JudgedTicks(reviewers=frozenset({1, 2}), accepted_coach=frozenset({2, 3}))
    assert judged.covered == {1, 2, 3}
    assert quality_points(15, judged, 5) == 9
