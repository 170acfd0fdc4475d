"""The bundled bank is fit to practise with for a quarter: complete, varied, no repeats."""

from __future__ import annotations

from collections import Counter

import pytest

from questions.loader import bundled_packs_dir, load_pack
from questions.pack import MAX_KEY_POINTS, MIN_KEY_POINTS, Pack, Question
from questions.similarity import NEAR_DUPLICATE_THRESHOLD, near_duplicates, similarity

AI_INFRA = load_pack(bundled_packs_dir() / "ai-infra.yaml")
BUNDLED: list[Pack] = [load_pack(p) for p in sorted(bundled_packs_dir().glob("*.y*ml"))]
ALL_QUESTIONS: list[Question] = [q for pack in BUNDLED for q in pack.questions]


def test_the_bank_lasts_a_quarter_of_weekdays() -> None:
    assert len(AI_INFRA.questions) >= 60


def test_the_bank_spreads_over_topics() -> None:
    per_topic = Counter(q.topic for q in AI_INFRA.questions)
    assert len(per_topic) >= 12
    biggest, count = per_topic.most_common(1)[0]
    assert count <= len(AI_INFRA.questions) / 5, f"{biggest} has {count} questions"


@pytest.mark.parametrize("question", ALL_QUESTIONS, ids=lambda q: q.id)
def test_every_question_is_complete(question: Question) -> None:
    assert question.outline.strip()
    assert 1 <= len(question.follow_ups) <= 3
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
