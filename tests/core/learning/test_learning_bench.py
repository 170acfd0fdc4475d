"""bench/learning.py stays runnable: a tiny simulation through the real service prints its
table and, last, its one-line summary in the documented form (the bench's figures are not
asserted here), which says which targets hold, the goal date's and each setting's; and its
learners' first-sight recall spans the range the policy has to learn."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "learning.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learning_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def tiny_run(**changes: object) -> argparse.Namespace:
    """The bench's arguments for a run of seconds: 2 learners, a 6-question bank, goal day
    6, recall measured on days 4 and 8; ``changes`` set the rest."""
    arguments: dict[str, object] = {
        "seeds": 1,
        "first_seed": 1,
        "learners": 2,
        "banks": "6",
        "jobs": 1,
        "quick": False,
        "no_goal_horizons": "14",
        "only_no_goal": False,
        "goal_day": 6,
        "constant_prior": False,
        "no_goal_days": "4,8",
        "oracle": False,
        "true_level": False,
        "level_oracle": False,
        "only": "",
    }
    return argparse.Namespace(**{**arguments, **changes})


def test_a_tiny_run_prints_the_table_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    load_bench().main(tiny_run(no_goal_horizons="30,90"))
    lines = capsys.readouterr().out.strip().splitlines()
    ratio = r"\d+\.\d{3} ± \d+\.\d{3}"
    number = r"\d\.\d{3}"
    assert "shipped: planned" in lines
    rows = [line for line in lines if line.startswith("| goal") or line.startswith("| no goal")]
    assert [row.split(" | ")[0:3] for row in rows] == [
        ["| goal", "6", "6"],
        ["| no goal", "6", "4"],
        ["| no goal", "6", "8"],
    ]
    for row in rows:
        means = r" \| ".join([number] * 4)
        ratios = r" \| ".join([ratio] * 5)
        assert re.search(rf"\| {means} \| {ratios} \|", row), row
    assert re.fullmatch(r"vs channel-only, goal, 6 questions: " + ratio, lines[-2]), lines[-2]
    summary = (
        rf"learning: shipped {number} channel-only {number} round-robin {number}"
        rf" vs-channel (?P<channel>{ratio}) vs-round-robin (?P<rr>{ratio})"
        r" \(goal on day 6, 6 questions: vs-channel >= 1\.3 (?P<channel_held>met|MISSED),"
        r" vs-round-robin >= 1\.02 (?P<rr_held>met|MISSED)\);"
        r" per setting: (?P<met>\d) of 3 met(?P<missed>.*)"
    )
    verdict = re.fullmatch(summary, lines[-1])
    assert verdict is not None, lines[-1]
    # what it says is what the figures say
    vs_channel, vs_rr = (float(verdict[name].split()[0]) for name in ("channel", "rr"))
    assert (verdict["channel_held"] == "met") == (vs_channel >= 1.3)
    assert (verdict["rr_held"] == "met") == (vs_rr >= 1.02)
    missed_rows = [row for row in rows if row.endswith("MISSED")]
    assert int(verdict["met"]) == 3 - len(missed_rows)
    named = re.findall(r"(goal|no goal) 6q day (\d)", verdict["missed"])
    assert named == [(row.split(" | ")[0][2:], row.split(" | ")[2]) for row in missed_rows]


def test_the_bounds_told_the_truth_get_a_table_against_round_robin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_bench().main(tiny_run(oracle=True, true_level=True, only="planned,oracle,true-level"))
    lines = capsys.readouterr().out.strip().splitlines()
    assert not any(line.startswith("learning:") for line in lines)  # --only: no verdict
    header = next(line for line in lines if line.startswith("| setting"))
    assert header == (
        "| setting | bank | day | planned vs round-robin | oracle vs round-robin"
        " | true-level vs round-robin |"
    )
    rows = [line for line in lines if line.startswith("| goal") or line.startswith("| no goal")]
    ratio = r"\d+\.\d{3} ± \d+\.\d{3}"
    assert len(rows) == 3
    ratios = r" \| ".join([ratio] * 3)
    for row in rows:
        assert re.fullmatch(rf"\| (goal|no goal) \| 6 \| \d \| {ratios} \|", row), row


def test_the_oracle_takes_the_review_that_raises_true_recall_most() -> None:
    bench = load_bench()
    learner = bench.learners(1, 1, 3)[0]
    now = bench.START
    learner.priors.update({0: 0.1, 1: 0.1, 2: 0.5})
    learner.attempt(1, now, bench.random.Random(0))  # question 1: reviewed just now
    later = [now + bench.timedelta(days=30)]
    gains = [bench.true_gain(learner, q, now + bench.timedelta(days=1), later) for q in range(3)]
    # a first review is worth more the less the learner knows on first sight, and more
    # than a second review the day after the first
    assert gains[0] > gains[2] > 0 and gains[0] > gains[1]
    truth = bench.Truth({7: learner}, {10: 0, 11: 1, 12: 2}, tuple(later))
    request = bench.PracticeRequest(7, [11, 12, 10], {}, now + bench.timedelta(days=1), None)
    assert bench.TrueMemoryOracle(truth).choose(request) == 10
    assert bench.TrueMemoryOracle(truth).choose(bench.replace(request, candidates=[])) is None


def test_the_level_oracle_knows_the_true_memory_but_not_one_unseen_questions_recall() -> None:
    bench = load_bench()
    learner = bench.learners(1, 1, 3)[0]
    now = bench.START
    learner.priors.update({0: 0.1, 1: 0.1, 2: 0.5})  # true level: 0.233
    later = (now + bench.timedelta(days=30),)
    truth = bench.Truth({7: learner}, {10: 0, 11: 1, 12: 2}, later)
    unseen = bench.PracticeRequest(7, [12, 10], {}, now, None)
    # the oracle takes the question the learner knows least; the level oracle cannot
    # tell the two apart and takes the first
    assert bench.TrueMemoryOracle(truth).choose(unseen) == 10
    assert bench.TrueLevelOracle(truth).choose(unseen) == 12
    level = sum(learner.priors.values()) / 3
    # the same arithmetic on the same numbers: an exact tie, which the earlier one wins
    assert bench.true_gain(learner, 2, now, later, first_sight=level) == bench.true_gain(
        learner, 0, now, later, first_sight=level
    )
    # a question seen is judged on its true memory, one never seen on the level: a miss
    # of the day before is worth less than a first sight of a learner who knows little...
    assert learner.attempt(1, now, bench.random.Random(1)) == bench.Grade.MISSED
    tomorrow = now + bench.timedelta(days=1)
    seen = bench.PracticeRequest(7, [12, 11], {}, tomorrow, None)
    assert bench.TrueLevelOracle(truth).choose(seen) == 12
    assert bench.TrueLevelOracle(truth, days_ahead=7).choose(seen) == 12
    # ...and worth more than one of a learner who knows most answers on first sight, even
    # when this unseen question is one they do not know (which only the oracle sees)
    learner.priors.update({0: 1.0, 1: 1.0, 2: 0.05})
    assert bench.TrueLevelOracle(truth).choose(seen) == 11
    assert bench.TrueLevelOracle(truth, days_ahead=7).choose(seen) == 11
    assert bench.TrueMemoryOracle(truth).choose(seen) == 12


def test_the_level_oracle_runs_aimed_at_the_measurements_and_rolling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_bench().main(tiny_run(level_oracle=True, only="level-oracle,level-oracle-7d"))
    lines = capsys.readouterr().out.strip().splitlines()
    header = next(line for line in lines if line.startswith("| setting"))
    assert header == (
        "| setting | bank | day | level-oracle vs round-robin | level-oracle-7d vs round-robin |"
    )
    rows = {tuple(line.split(" | ")[0:3]): line for line in lines if line.startswith("| ")}
    ratio = r"\d+\.\d{3} ± \d+\.\d{3}"
    # rolling is what a policy without a goal must do: it runs in that setting only
    assert re.fullmatch(rf"\| goal \| 6 \| 6 \| {ratio} \| - \|", rows[("| goal", "6", "6")])
    for day in ("4", "8"):
        row = rows[("| no goal", "6", day)]
        assert re.fullmatch(rf"\| no goal \| 6 \| {day} \| {ratio} \| {ratio} \|", row), row


def test_learners_first_sight_recall_spans_the_range_the_policy_must_learn() -> None:
    bench = load_bench()
    levels = [
        sum(learner.priors.values()) / len(learner.priors)
        for seed in range(1, 5)
        for learner in bench.learners(seed, 10, 60)
    ]
    assert min(levels) < 0.12 and max(levels) > 0.5
