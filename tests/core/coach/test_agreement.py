"""The coach's agreement with teammates' review ticks, per key point, and the stand-in rule."""

from __future__ import annotations

from bot.coach.agreement import STAND_IN_ANSWERS, agreement


def test_precision_and_recall_count_key_points_over_every_answer() -> None:
    measured = agreement(
        [
            (frozenset({1, 2}), frozenset({1, 2, 3})),  # 2 agreed, coach 2, reviewers 3
            (frozenset({4}), frozenset()),  # a tick no reviewer made
        ]
    )
    assert measured.answers == 2
    assert measured.precision == 2 / 3 and measured.recall == 2 / 3
    assert not measured.meets_the_stand_in_rule


def test_the_rule_needs_enough_answers_and_both_figures() -> None:
    agreed = [(frozenset({1, 2}), frozenset({1, 2}))]
    assert not agreement(agreed * (STAND_IN_ANSWERS - 1)).meets_the_stand_in_rule
    assert agreement(agreed * STAND_IN_ANSWERS).meets_the_stand_in_rule
    silent = agreement([(frozenset(), frozenset({1}))] * STAND_IN_ANSWERS)
    assert silent.precision is None and silent.recall == 0.0
    assert not silent.meets_the_stand_in_rule
