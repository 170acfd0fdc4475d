"""Overlaps found by meaning: what questions and follow-ups ask and what their answers cover.

The fixture ``overlaps_issue_38.yaml`` holds the questions of the eight strong overlaps an
outside review found in the bundled bank (issue 38), as they were before they were fixed,
where the wording check had passed them all (highest similarity 0.36).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from questions import meaning
from questions.loader import load_pack
from questions.meaning import (
    FOLLOW_UP_THRESHOLD,
    QUESTION_THRESHOLD,
    same_meanings,
    scored_pairs,
    shared_terms,
)
from questions.meaning_terms import terms
from questions.overlap_report import main, report
from questions.overlaps import overlaps, repeated_derivations
from questions.pack import Question
from questions.similarity import NEAR_DUPLICATE_THRESHOLD, similarity

FIXTURE = Path(__file__).with_name("overlaps_issue_38.yaml")
FROZEN: list[Question] = list(load_pack(FIXTURE).questions)

# The review's eight pairs, as the parts it named; the fourth names three questions.
ISSUE_38_PAIRS: list[tuple[str, ...]] = [
    ("cuda-mps-concurrency (follow-up 2)", "k8s-device-plugin-sharing"),
    ("gpu-sharing-many-small-models (follow-up 1)", "mig-profiles-placement-h100"),
    ("mig-vs-time-slicing (follow-up 1)", "kv-cache-size-70b-gqa (follow-up 1)"),
    (
        "trainium-porting-neuron (follow-up 1)",
        "jax-jit-tracing-side-effects (follow-up 1)",
        "torch-compile-recompilation-guards",
    ),
    ("checkpoint-size-70b-async (follow-up 1)", "parallel-fs-vs-object-storage (follow-up 1)"),
    ("ib-ethernet-speed-ladder", "gpudirect-rdma-rail-optimized"),
    ("gpu-failure-triage-xid-ecc (follow-up 2)", "slurm-vs-kubernetes-training (follow-up 1)"),
    ("elastic-training-node-failure (follow-up 2)", "straggler-detection-large-job"),
]
# Found by what the parts mean; two more repeat a derivation. The one missed says it in
# other words throughout: "a time-sliced GPU running out of memory" against "the engine
# reserved 90% of every GPU's memory", sharing only gpu_memory_utilization and MIG.
FOUND_BY_MEANING = [0, 3, 4, 6, 7]
FOUND_AS_DERIVATIONS = [1, 5]


def _question_ids(parts: Sequence[str]) -> set[str]:
    return {part.split(" (")[0] for part in parts}


def test_the_overlap_checks_find_at_least_six_of_the_review_s_eight_pairs() -> None:
    found = {frozenset(overlap.questions) for overlap in overlaps(FROZEN)}
    flagged = [
        index
        for index, named in enumerate(ISSUE_38_PAIRS)
        if any(pair <= _question_ids(named) for pair in found)
    ]
    assert flagged == sorted(FOUND_BY_MEANING + FOUND_AS_DERIVATIONS)
    assert len(flagged) >= 6


@pytest.mark.parametrize("index", FOUND_BY_MEANING, ids=lambda i: ISSUE_38_PAIRS[i][0])
def test_the_meaning_check_flags_the_parts_the_review_named(index: int) -> None:
    named = set(ISSUE_38_PAIRS[index])
    pairs = [{str(pair.first), str(pair.second)} for pair in same_meanings(FROZEN)]
    flagged = [pair for pair in pairs if pair <= named]
    assert flagged, f"none of {sorted(named)} flagged"


@pytest.mark.parametrize("index", FOUND_AS_DERIVATIONS, ids=lambda i: ISSUE_38_PAIRS[i][0])
def test_the_derivations_the_review_found_repeated_are_standard_derivations(index: int) -> None:
    found = [set(overlap.questions) for overlap in repeated_derivations(FROZEN)]
    assert _question_ids(ISSUE_38_PAIRS[index]) in found


def test_a_pair_a_reviewer_found_distinct_is_scored_but_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    named = frozenset(ISSUE_38_PAIRS[0])
    monkeypatch.setitem(meaning.REVIEWED_DISTINCT, named, "asks how, not which")
    [pair] = [p for p in scored_pairs(FROZEN) if p.names == named]
    assert pair.close and not pair.same
    assert pair.reviewed_distinct == "asks how, not which"
    assert named not in {p.names for p in same_meanings(FROZEN)}
    assert f"SEEN {ISSUE_38_PAIRS[0][0]} ~ {ISSUE_38_PAIRS[0][1]}" in report(FROZEN, top=3)[1]


def test_a_pcie_link_s_own_bandwidth_is_not_the_nic_derivation() -> None:
    nic = "A 400 Gb/s NIC (50 GB/s) fits under a PCIe Gen5 x16 link's ~64 GB/s per direction."
    host = (
        "Each GPU reloads 2.7 GB over its PCIe Gen5 x16 link (~64 GB/s raw, ~50 GB/s in practice)."
    )
    pair = [_question("rdma", "Why one NIC per GPU?", nic), _question("tiering", "Reload?", host)]
    assert repeated_derivations(pair) == []


def _question(qid: str, follow_up: str, notes: str) -> Question:
    return Question.model_validate(
        {
            "id": qid,
            "topic": "cluster-ops",
            "question": "How do you keep broken GPU nodes out of a training cluster's schedule?",
            "outline": "Detect, drain, diagnose, return.",
            "follow_ups": [{"ask": follow_up, "notes": notes}],
        }
    )


# gpu-failure-triage-xid-ecc's follow-up 2, asked and answered again in other words.
REWORDED = _question(
    "node-health-runbook",
    "Before each job starts and after it ends, which node checks would you have Slurm run,"
    " and how long may they take?",
    "Before the job (prolog), seconds only: GPU count, pending row remaps, new Xid errors,"
    " NVLink and NIC link speed, mounts, dcgmi diag -r 1.\n"
    "After the job (epilog): kill leftover processes, reset GPUs, look for Xid and ECC events"
    " from the job, drain the node if anything failed.\n"
    "Long diagnostics (dcgmi diag -r 3, nccl-tests, burn-in) only on drained nodes.",
)
# The same topic and question, a follow-up that asks something else.
DISTINCT = _question(
    "node-health-runbook",
    "How many nodes would you expect to fail per day in a 2,048-node cluster, given a"
    " per-node MTBF of 5 years?",
    "2,048 nodes / (5 × 365 days) ≈ 1.1 failures per day.\n"
    "Burst failures (a bad PDU, a switch) break the independence assumption.\n"
    "Plan spare capacity and checkpoint intervals from this rate.",
)


def _closest_to(question: Question) -> float:
    pairs = scored_pairs([*FROZEN, question], at_least=0.0)
    return max(p.score for p in pairs if question.id in (p.first.question, p.second.question))


def test_a_follow_up_asked_again_in_other_words_means_the_same() -> None:
    [pair, *_] = [p for p in same_meanings([*FROZEN, REWORDED]) if "runbook" in str(p.second)]
    assert (str(pair.first), str(pair.second)) == (
        "gpu-failure-triage-xid-ecc (follow-up 2)",
        "node-health-runbook (follow-up 1)",
    )
    assert pair.score >= 3 * FOLLOW_UP_THRESHOLD  # far above, not at the margin


def test_a_follow_up_on_the_same_topic_that_asks_something_else_does_not() -> None:
    assert _closest_to(DISTINCT) < FOLLOW_UP_THRESHOLD


# ib-ethernet-speed-ladder asked again, its question, outline and key points reworded.
SPEED_LADDER_AGAIN = Question.model_validate(
    {
        "id": "speed-ladder-again",
        "topic": "network-design",
        "question": "A vendor quotes link speeds as lanes and Gb/s. Go from EDR to XDR and"
        " through the Ethernet steps, and convert a 400G port into bytes per second.",
        "outline": "EDR 100, HDR 200, NDR 400 and XDR 800 Gb/s per 4x port, from 25, 50, 100"
        " and 200 Gb/s lanes. 400GbE is 8 lanes of 50G or 4 of 100G; 800GbE 8 of 100G. A"
        " switch ASIC's capacity is its lanes times the lane rate: 51.2 Tb/s gives 64 ports"
        " of 800G. 400 Gb/s divided by 8 is 50 GB/s in each direction.",
        "key_points": [
            "EDR 100, HDR 200, NDR 400, XDR 800 Gb/s per 4x port",
            "Lanes of 25, 50, 100, 200 Gb/s",
            "400GbE is 8×50G or 4×100G lanes",
            "400 Gb/s is 50 GB/s each way",
            "Switch capacity is lanes × lane rate",
        ],
    }
)


def test_a_question_asked_again_with_its_key_points_reworded_means_the_same() -> None:
    [original] = [q for q in FROZEN if q.id == "ib-ethernet-speed-ladder"]
    assert similarity(original.question, SPEED_LADDER_AGAIN.question) < NEAR_DUPLICATE_THRESHOLD
    [pair, *_] = [p for p in scored_pairs([*FROZEN, SPEED_LADDER_AGAIN]) if "again" in str(p)]
    assert (str(pair.first), str(pair.second)) == ("ib-ethernet-speed-ladder", "speed-ladder-again")
    assert pair.score >= 2 * QUESTION_THRESHOLD


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("multi-instance GPU", "MIG"),
        ("a 1g.10gb slice", "a MIG instance"),
        ("it recompiles", "a retrace"),
        ("the manifest", "a marker object"),
        ("the slowest", "a straggler"),
        ("time-sliced", "time slicing"),
        ("400 Gbit/s", "400 Gb/s"),
        ("4,096 tokens", "4096 tokens"),
    ],
)
def test_one_concept_in_other_words_is_one_term(one: str, other: str) -> None:
    assert terms(one) == terms(other)


@pytest.mark.parametrize(("one", "other"), [("400 Gb/s", "400 GB/s"), ("400 Gb/s", "400")])
def test_a_figure_keeps_its_unit(one: str, other: str) -> None:
    assert terms(one) != terms(other)


def test_shared_terms_say_why_a_pair_scores() -> None:
    [pair] = [p for p in same_meanings(FROZEN) if p.first.question == "cuda-mps-concurrency"]
    assert "mps" in shared_terms(pair)


def test_the_report_lists_findings_and_the_closest_pairs_with_scores() -> None:
    found, printed = report(FROZEN, top=3)
    assert found == overlaps(FROZEN)
    assert "17 questions checked in" in printed and f"{len(found)} overlap(s)" in printed
    closest = printed.split("Closest 3 pairs by meaning")[1].splitlines()[1:]
    assert len(closest) == 3
    assert closest[0].startswith("  0.188 SAME cuda-mps-concurrency (follow-up 2) ~ k8s-device")


def test_the_report_runs_on_pack_files_and_fails_on_an_overlap(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([str(FIXTURE), "--top", "2"]) == 1
    assert "SAME" in capsys.readouterr().out
    distinct = tmp_path / "distinct.yaml"
    distinct.write_text(
        "id: distinct\ntitle: Two questions\nquestions:\n"
        + "".join(
            f"  - {{id: q{n}, topic: t, question: '{text}', outline: o.}}\n"
            for n, text in enumerate(["What is RoPE?", "How does an SSD fail?"])
        ),
        encoding="utf-8",
    )
    assert main([str(distinct)]) == 0
    assert "2 questions checked in" in capsys.readouterr().out
