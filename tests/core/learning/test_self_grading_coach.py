"""bench/self_grading.py's coach grader: a perfect coach (every covered key point ticked,
nothing else, no leniency) grades as the checklist ticked truthfully does, and a coach
that misses covered points grades lower; a tiny coach run prints its table."""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fsrs import Rating

BENCH = Path(__file__).resolve().parents[3] / "bench" / "self_grading.py"
SEEDS = range(300)


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("self_grading_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_perfect_coach_gives_the_honest_checklist_grades() -> None:
    bench = load_bench()
    coach = bench.Coach(precision=1.0, recall=1.0, leniency=0.0)
    for true in Rating:
        for seed in SEEDS:
            honest = bench.honest_checklist(true, random.Random(seed))
            assert coach.grade(true, random.Random(seed)) == honest, (true, seed)
    assert coach.false_ticks == coach.missed == coach.kinder == 0
    assert coach.true_ticks > 0


def test_a_coach_that_misses_points_grades_lower() -> None:
    bench = load_bench()
    perfect = bench.Coach(precision=1.0, recall=1.0, leniency=0.0)
    forgetful = bench.Coach(precision=1.0, recall=0.5, leniency=0.0)
    cases = [(true, seed) for true in (Rating.Hard, Rating.Good, Rating.Easy) for seed in SEEDS]
    high = [perfect.grade(true, random.Random(seed)) for true, seed in cases]
    low = [forgetful.grade(true, random.Random(seed)) for true, seed in cases]
    # the same answers: never a higher grade, and lower on the whole
    assert all(lower <= higher for lower, higher in zip(low, high, strict=True))
    assert statistics.fmean(low) < statistics.fmean(high) - 0.5
    assert forgetful.missed > 0 and forgetful.false_ticks == 0


def test_a_lenient_coach_grades_higher_and_a_loose_one_ticks_falsely() -> None:
    bench = load_bench()
    strict = bench.Coach(precision=1.0, recall=0.7, leniency=0.0)
    lenient = bench.Coach(precision=1.0, recall=0.7, leniency=0.5)
    loose = bench.Coach(precision=0.5, recall=0.7, leniency=0.0)
    cases = [(true, seed) for true in Rating for seed in SEEDS]
    strict_grades = [strict.grade(true, random.Random(seed)) for true, seed in cases]
    lenient_grades = [lenient.grade(true, random.Random(seed)) for true, seed in cases]
    assert statistics.fmean(lenient_grades) > statistics.fmean(strict_grades) + 0.2
    assert lenient.kinder > strict.kinder == 0
    for true, seed in cases:
        loose.grade(true, random.Random(seed))
    # answers of every outcome alike cover more points than the bench's (0.6, not 0.48):
    # the share of true ticks is a little above the 0.5 set, far below a careful coach's
    assert 0.5 < loose.true_ticks / (loose.true_ticks + loose.false_ticks) < 0.75
    assert strict.false_ticks == 0


def test_a_tiny_coach_run_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    arguments = argparse.Namespace(
        learners=2,
        days=6,
        questions=6,
        per_day=2,
        seed=1,
        workers=1,
        coach=True,
        coach_precision=[0.9],
        coach_recall=[0.5],
        coach_leniency=[0.0, 0.2],
    )
    bench.main(arguments)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    names = [row.split(" | ")[0] for row in rows[2:]]
    assert names == [
        "| honest",
        "| self",
        "| checklist",
        "| none",
        "| coach p=0.9 r=0.5 lenient=0.0",
        "| coach p=0.9 r=0.5 lenient=0.2",
    ]
