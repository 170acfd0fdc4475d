"""The team population of the learning bench: a question's difficulty is shared by the
team, the shipped rule reads it from teammates' first grades, and the report checks the
issue's targets from the figures."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

import team_population as population  # noqa: E402
from learning import Truth  # noqa: E402

from bot.kernel.grades import Grade  # noqa: E402


def test_a_teams_question_is_as_hard_for_every_learner_of_it() -> None:
    people, difficulty = population.team(1, 4, 12, 1.0, kept=False)
    hardest = min(range(12), key=lambda q: difficulty[q])
    easiest = max(range(12), key=lambda q: difficulty[q])
    for learner in people:
        assert learner.priors[hardest] < learner.priors[easiest]
        assert learner.scales[hardest] < 1 < learner.scales[easiest]


def test_the_shipped_rule_reads_teammates_first_grades_and_the_other_does_not() -> None:
    log = population.TeamLog(6, [{}, {}, {}], [[], [], []], [{}, {}, {}])
    for member in (1, 2):
        at = population.START
        log.record(member, 0, Grade.MISSED, at)
        log.record(member, 1, Grade.GOOD, at)
    shipped = log.sights(0, with_questions=True).priors({0: "gpu", 1: "networking", 2: "gpu"})
    fit = log.sights(0, with_questions=False).priors({0: "gpu", 1: "networking", 2: "gpu"})
    assert shipped[0] < fit[0] and shipped[1] > fit[1]
    assert shipped[2] == fit[2]  # nobody has seen it: the member's level


def test_a_small_team_runs_every_set_up_on_the_same_activity() -> None:
    recalls = {
        setup: population.simulate_team(2, 3, 12, 1.0, setup, (10, 20), goal=False)[0]
        for setup in population.SETUPS
    }
    for measured in recalls.values():
        assert sorted(measured) == [10, 20]
        assert all(0.0 < r < 1.0 for day in measured.values() for r in day)
    # the same learners start from the same knowledge: equal recall before any practice
    _, log = population.simulate_team(2, 3, 12, 1.0, "round-robin", (10,), goal=False)
    assert {r.card[0] for r in log} == {0, 1, 2}


def test_the_report_checks_the_targets_from_the_figures() -> None:
    setting = (8, 60, 1.0, False, 30)
    results = {
        ("round-robin", setting): {1: [1.0, 1.0]},
        ("practice-fit", setting): {1: [1.01, 1.01]},
        ("shipped", setting): {1: [1.03, 1.03]},
        ("question-oracle", setting): {1: [1.09, 1.09]},
        ("level-oracle", setting): {1: [1.02, 1.02]},
    }
    lines = population.team_report(results, [setting])
    assert lines[2].startswith("| 8 | 60 | 1 | no goal | 30 | 2 | 1.000 | 1.010 ± 0.000")
    assert lines[3].endswith(": 1; shipped >= 1.02x round-robin in 1")
    assert "shipped/question oracle 0.33" in lines[4]
    assert lines[5].endswith("below by > 2 SE in 0 of 1; above by > 1 SE in 1 of 1")


def test_the_team_grades_oracle_reads_each_teammates_first_sight_by_their_level() -> None:
    people, _ = population.team(1, 3, 6, 1.0, kept=False)
    log = population.TeamLog(6, [{}, {}, {}], [[], [], []], [{}, {}, {}])
    for member in (1, 2):
        log.record(member, 0, Grade.MISSED, population.START)
        log.record(member, 1, Grade.GOOD, population.START)
    truth = Truth(dict(enumerate(people)), {q: q for q in range(6)}, ())
    oracle = population.TeamGradesOracle(truth, log, spread=1.0)
    level = people[0].level
    nobody = oracle._posterior_recall(level, 2)
    # a question nobody graded: the member's level, averaged over the spread of difficulty
    assert abs(nobody - level) < 0.1
    assert oracle._posterior_recall(level, 0) < nobody < oracle._posterior_recall(level, 1)
