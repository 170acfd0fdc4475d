"""The bundled bank is fit to practise with for a quarter: complete, varied, no repeats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from questions.loader import bundled_packs_dir, load_pack
from questions.meaning import REVIEWED_DISTINCT, scored_pairs
from questions.overlaps import (
    FOLLOW_UP_THRESHOLD,
    STANDARD_DERIVATIONS,
    computations,
    overlaps,
    repeated_asks,
    repeated_computations,
    repeated_derivations,
    repeated_meanings,
)
from questions.pack import MAX_KEY_POINTS, MIN_KEY_POINTS, Pack, Question
from questions.similarity import NEAR_DUPLICATE_THRESHOLD, near_duplicates, similarity

AI_INFRA = load_pack(bundled_packs_dir() / "ai-infra.yaml")
BUNDLED: list[Pack] = [load_pack(p) for p in sorted(bundled_packs_dir().glob("*.y*ml"))]
ALL_QUESTIONS: list[Question] = [q for pack in BUNDLED for q in pack.questions]


# Areas a senior interviewer expects beyond the original bank (issue 27): each a topic of
# at least two questions.
AREAS = (
    "accelerators",  # MI300X and ROCm, Blackwell and FP4, NVL72, H200, TPUs, Trainium
    "gpu-sharing",  # MIG, MPS, time-slicing, the Kubernetes device plugin, Slurm GRES
    "compilers",  # torch.compile, Inductor, XLA/JAX, TensorRT-LLM
    "long-context",  # context parallelism: ring attention, Ulysses
    "mixture-of-experts",  # MoE serving with expert parallelism
    "network-design",  # fat-tree vs rails, oversubscription, speeds, acceptance tests
    "training-health",  # loss spikes, NaNs, silent data corruption
    "post-training",  # RLHF and RL infrastructure
    "power-cooling",
)


def test_the_bank_lasts_half_a_year_of_weekdays() -> None:
    assert len(AI_INFRA.questions) >= 120


def test_the_bank_spreads_over_topics() -> None:
    per_topic = Counter(q.topic for q in AI_INFRA.questions)
    assert len(per_topic) >= 28
    biggest, count = per_topic.most_common(1)[0]
    assert count <= len(AI_INFRA.questions) / 10, f"{biggest} has {count} questions"
    assert [t for t, n in per_topic.items() if n < 2] == [], "a topic with a single question"


def test_every_area_has_at_least_two_questions() -> None:
    per_topic = Counter(q.topic for q in AI_INFRA.questions)
    assert {area: per_topic[area] for area in AREAS if per_topic[area] < 2} == {}


def test_the_bank_has_at_least_twenty_warm_ups() -> None:
    assert sum(q.difficulty == "easy" for q in AI_INFRA.questions) >= 20


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: q.id)
def test_every_question_is_complete(question: Question) -> None:
    assert question.outline.strip()
    assert 1 <= len(question.follow_ups) <= 3
    for follow_up in question.follow_ups:  # what a good answer contains, to grade it by
        assert follow_up.notes is not None, follow_up.ask
        assert 2 <= len(follow_up.note_lines) <= 4, follow_up.ask
    assert MIN_KEY_POINTS <= len(question.key_points) <= MAX_KEY_POINTS
    assert question.difficulty is not None


def test_no_two_bundled_questions_ask_nearly_the_same() -> None:
    assert [str(pair) for pair in near_duplicates(ALL_QUESTIONS)] == []


def test_a_reworded_question_is_a_near_duplicate() -> None:
    original = (
        "How much GPU memory does the Adam optimizer consume for a 7B parameter model"
        " in mixed-precision training, and why?"
    )
    reworded = (
        "For a 7B parameter model trained in mixed precision, how much GPU memory does"
        " Adam consume, and why?"
    )
    assert similarity(original, reworded) >= NEAR_DUPLICATE_THRESHOLD


def test_two_questions_on_one_topic_that_ask_different_things_are_not() -> None:
    sizing = "How large is the KV cache per token for a 70B model with 8 KV heads?"
    paging = "How does PagedAttention avoid fragmenting KV cache memory between requests?"
    assert similarity(sizing, paging) < NEAR_DUPLICATE_THRESHOLD


def test_near_duplicates_names_the_pair() -> None:
    base = AI_INFRA.questions[0]
    copy = base.model_copy(update={"id": "attention-again"})
    pairs = near_duplicates([base, copy])
    assert [(p.first, p.second) for p in pairs] == [(base.id, "attention-again")]
    assert pairs[0].score == pytest.approx(1.0)


def test_no_two_bundled_questions_ask_the_same_follow_ups_or_computations_included() -> None:
    assert [str(overlap) for overlap in overlaps(ALL_QUESTIONS)] == []


def test_every_pair_reviewed_as_distinct_is_still_in_the_bank_and_still_close() -> None:
    close = {pair.names for pair in scored_pairs(ALL_QUESTIONS) if pair.close}
    assert [sorted(pair) for pair in REVIEWED_DISTINCT if pair not in close] == []


def test_no_two_bundled_questions_mean_the_same_follow_ups_included() -> None:
    # What each part asks and its answer covers, compared by meaning (questions/meaning.py);
    # `python -m questions.overlaps` lists the closest pairs with their scores.
    assert [str(overlap) for overlap in repeated_meanings(ALL_QUESTIONS)] == []


def _asking(
    qid: str, text: str = "", *, outline: str = "", follow_ups: Sequence[str] = ()
) -> Question:
    return Question.model_validate(
        {
            "id": qid,
            "topic": "t",
            "question": text or f"Question {qid}?",
            "outline": outline or f"Outline {qid}.",
            "follow_ups": list(follow_ups),
        }
    )


# Texts of the bank before issue 27, each repeated by another question.
TP16 = (
    "How does grouped-query attention with 8 KV heads constrain the tensor-parallel degree,"
    " and what would you do at TP=16?"
)
TP16_AGAIN = "What happens to the per-GPU KV cache if you go to TP=16 with only 8 KV heads?"
KV_70B = (
    "Per token: 2 (K and V) × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 bytes (320 KiB)."
)
KV_70B_AGAIN = (
    "Per token: 2 (K and V) × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 B = 320 KiB."
)
KV_8B = (
    "With 32 layers, 8 KV heads, head_dim 128, BF16: 2 × 32 × 8 × 128 × 2 B = 128 KiB per token."
)
DERIVED_TWICE = [
    (
        "the Young/Daly optimal checkpoint interval",
        "setting the derivative to zero gives Young's τ = √(2·C·M)",
        "Checkpoint at the Young/Daly interval τ ≈ √(2·C·MTBF).",
    ),
    (
        "KV heads against a tensor-parallel degree above their count",
        TP16,
        "Under TP, KV heads are split across ranks: GQA-8 at TP=8 gives one head per rank, but"
        " beyond 8, or with MQA, heads are replicated and the saving per GPU is lost.",
    ),
    (
        "decode's arithmetic intensity (the batch size) against the roofline ridge",
        "During decode, a batch of B tokens is multiplied by a 4096×4096 BF16 weight matrix."
        " Roughly what B makes this GEMM compute-bound on an H100?",
        "A BF16 GEMM over B tokens has intensity ≈ B FLOP/byte, far below H100's ridge.",
    ),
    (
        "the definition of a rail-optimised fabric",
        "NIC i of every node in a scalable unit connects to leaf switch i (rail i).",
        "Rail-optimised means GPU i of every node in a scalable unit connects to leaf switch i.",
    ),
    (
        "the 16 bytes per parameter of mixed-precision Adam, part by part",
        "Parameters: 7B * 2 bytes (bf16) = 14 GB. Gradients: 7B * 2 bytes = 14 GB."
        " Optimizer state for Adam: fp32 master weights (7B * 4 = 28 GB).",
        "Per parameter: 2 bytes for BF16 parameters, 2 bytes for gradients, 12 bytes of"
        " optimizer state = 16 bytes.",
    ),
]


def test_a_follow_up_that_repeats_another_question_s_follow_up_is_an_overlap() -> None:
    pair = [_asking("tp-split", follow_ups=[TP16]), _asking("kv-size", follow_ups=[TP16_AGAIN])]
    [overlap] = repeated_asks(pair)
    assert overlap.questions == ("tp-split", "kv-size")
    assert "tp-split (follow-up 1) and kv-size (follow-up 1) ask nearly the same" in str(overlap)
    assert FOLLOW_UP_THRESHOLD <= similarity(TP16, TP16_AGAIN) < NEAR_DUPLICATE_THRESHOLD


def test_a_follow_up_that_repeats_another_question_is_an_overlap() -> None:
    pair = [_asking("tp-split", TP16), _asking("kv-size", follow_ups=[TP16_AGAIN])]
    assert [o.questions for o in repeated_asks(pair)] == [("tp-split", "kv-size")]


def test_one_question_may_return_to_its_own_ask_in_a_follow_up() -> None:
    assert repeated_asks([_asking("tp-split", TP16, follow_ups=[TP16_AGAIN])]) == []


def test_the_same_worked_computation_in_two_questions_is_an_overlap() -> None:
    [worked] = computations(KV_70B)
    assert (worked.result, sorted(worked.operands.elements())) == (327680, [2, 2, 8, 80, 128])
    pair = [_asking("kv-quant", outline=KV_70B), _asking("kv-size", outline=KV_70B_AGAIN)]
    [overlap] = repeated_computations(pair)
    assert overlap.questions == ("kv-quant", "kv-size")


def test_the_same_formula_on_another_model_is_not_the_same_computation() -> None:
    pair = [_asking("kv-size", outline=KV_70B), _asking("disaggregation", outline=KV_8B)]
    assert repeated_computations(pair) == []
    one_step = [
        _asking("a", outline="70B × 2 B = 140 GB."),
        _asking("b", outline="70B × 2 bytes ≈ 140 GB"),
    ]
    assert repeated_computations(one_step) == []  # a unit conversion, not a computation


def test_sequence_parallelism_s_own_head_limit_is_not_the_tensor_parallel_one() -> None:
    ulysses = "Limits: the degree cannot exceed the number of heads (the KV heads under GQA, unless"
    ulysses += " they are replicated), and all-to-all across nodes depends on network bisection."
    assert repeated_derivations([_asking("tp", TP16), _asking("ulysses", outline=ulysses)]) == []


@pytest.mark.parametrize(("name", "first", "second"), DERIVED_TWICE, ids=lambda v: str(v)[:24])
def test_a_standard_derivation_in_two_questions_is_an_overlap(
    name: str, first: str, second: str
) -> None:
    assert name in STANDARD_DERIVATIONS
    pair = [_asking("first", outline=first), _asking("second", follow_ups=[second])]
    assert [str(o) for o in repeated_derivations(pair)] == [
        f"first and second: each works or asks {name}"
    ]
    assert repeated_derivations(pair[:1]) == []
