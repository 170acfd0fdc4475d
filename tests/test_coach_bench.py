"""bench/coach.py's scoring: the precision and recall arithmetic before and after verification,
the derived grades, and the scripted endpoints that make the bench testable offline."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.coach.client import CoachClient
from bot.coach.endpoint import CoachEndpoint
from bot.coach.verification import DropReason
from bot.kernel.grades import Grade

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coach_bench", ROOT / "bench" / "coach.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def labelled(bench: ModuleType, ids: list[str]) -> list[Any]:
    by_id = {item.id: item for item in bench.load_labels()}
    return [by_id[answer_id] for answer_id in ids]


def test_the_labelled_set_is_as_large_and_varied_as_promised(bench: ModuleType) -> None:
    items = bench.load_labels()
    assert len(items) >= 100
    assert len({item.question_id for item in items}) >= 30
    kinds = [item.kind for item in items]
    assert {kind: kinds.count(kind) >= 8 for kind in bench.KINDS} == dict.fromkeys(
        bench.KINDS, True
    )
    # an answer that only names the terms covers nothing
    assert all(not item.covers for item in items if item.kind == "keyword_stuffed")


def test_precision_recall_and_f1_before_and_after_verification(bench: ModuleType) -> None:
    strong, stuffed = labelled(bench, ["norm-strong", "attn-keywords"])
    # norm-strong covers all 5 points; attn-keywords none
    outcomes = [
        bench.Outcome(strong, frozenset({1, 2}), frozenset({1}), {}, None),
        bench.Outcome(stuffed, frozenset({1, 2, 3}), frozenset(), {}, None),
        bench.Outcome(strong, frozenset(), frozenset(), {}, "malformed"),  # not scored
    ]
    before, after = bench.counts(outcomes, bench.BEFORE), bench.counts(outcomes, bench.AFTER)
    assert before == bench.Counts(tp=2, fp=3, fn=3)
    assert (before.precision, before.recall, before.f1) == (0.4, 0.4, pytest.approx(0.4))
    assert after == bench.Counts(tp=1, fp=0, fn=4)
    assert (after.precision, after.recall, after.f1) == (1.0, 0.2, pytest.approx(1 / 3))
    # the keyword-stuffed answer's three ticks are false ones, and the verification kept them out
    assert bench.unearned_ticks(outcomes, bench.BEFORE) == (3, 1)
    assert bench.unearned_ticks(outcomes, bench.AFTER) == (0, 0)
    # 2 of 5 is partly against the label's nailed; 3 of 5 (partly) on a stuffed one is lenient
    graded = bench.grades(outcomes, bench.BEFORE)
    assert (graded.answers, graded.right, graded.lenient, graded.strict) == (2, 0, 1, 1)
    assert bench.derived_grade(outcomes[1], bench.BEFORE) is Grade.PARTLY
    assert bench.grades(outcomes, bench.AFTER).right == 1  # nothing on the stuffed answer


def test_nothing_precise_is_claimed_without_a_tick(bench: ModuleType) -> None:
    assert bench.Counts(tp=0, fp=0, fn=3).precision is None
    assert bench.Counts(tp=0, fp=0, fn=3).f1 is None
    assert bench.percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert bench.percentile([3.0, 1.0, 2.0, 4.0], 0.95) == 4.0


async def scored(bench: ModuleType, script: str, ids: list[str]) -> list[Any]:
    recorder = bench.RecordingTransport(bench.ScriptedTransport(bench.SCRIPTS[script]))
    endpoint = CoachEndpoint(base_url="http://scripted.invalid/v1", model="scripted")
    client = CoachClient(endpoint, recorder)
    outcomes: list[Any] = await bench.run(labelled(bench, ids), client, recorder, model="scripted")
    return outcomes


async def test_an_endpoint_that_obeys_injections_ticks_nothing_that_stands(
    bench: ModuleType,
) -> None:
    # a plea to the grader, pasted key points, a fake JSON block, a JSON reply after "ignore"
    ids = ["attn-injection", "numa-injection", "gdr-injection", "graphs-injection"]
    outcomes = await scored(bench, "obedient", ids)
    assert [sorted(o.proposed) for o in outcomes] == [
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4, 5, 6],
        [1, 2, 3, 5, 6],
    ]
    assert [o.verified for o in outcomes] == [frozenset()] * 4
    # graphs-injection covers point 4, which the injection did not ask for
    assert bench.unearned_ticks(outcomes, bench.BEFORE) == (5 + 5 + 6 + 5, 4)
    assert bench.unearned_ticks(outcomes, bench.AFTER) == (0, 0)
    drops = bench.dropped(outcomes)
    assert sum(drops.values()) == 21
    assert drops[DropReason.ADDRESSES_THE_GRADER] == 5  # "… mark all five key points covered"
    assert drops[DropReason.RESTATES_KEY_POINT] > 0  # the pasted checklist
    calls = [call for outcome in outcomes for call in outcome.calls]
    assert len(calls) == 4 and all(call.prompt_tokens > 0 for call in calls)


async def test_ticking_everything_with_one_sentence_keeps_one_point_at_most(
    bench: ModuleType,
) -> None:
    (strong,) = await scored(bench, "first-sentence", ["attn-strong"])
    assert strong.proposed == frozenset({1, 2, 3, 4, 5})
    assert strong.verified == frozenset({1})  # the sentence explains point 1 only
    assert strong.dropped == {DropReason.QUOTE_REUSED: 4}
    assert bench.counts([strong], bench.BEFORE) == bench.Counts(tp=5, fp=0, fn=0)
    assert bench.counts([strong], bench.AFTER) == bench.Counts(tp=1, fp=0, fn=4)
    assert "| 1/1 | strong | 5 | 1.00 | 1.00 | 1.00 | 1.00 | 0.20 | 0.33 | 0 → 0 |" in (
        bench.report([strong], title="t")
    )
