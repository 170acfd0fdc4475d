"""Asks of one bank whose questions and answers mean the same, whatever their wording.

Every question has *parts*, each what it asks together with what its answer covers:

- the **question** part: the question text, its key points and, at half weight, its
  outline (the outline says more than the key points, so it would otherwise outweigh them);
- one **follow-up** part per follow-up: the ask and its notes.

Each part becomes the terms of :mod:`questions.meaning_terms` (concepts, figures with their
units, stemmed words and adjacent pairs), weighted by TF-IDF across the parts of the bank
being checked: a term every part uses (GPU, memory) counts for little, a term two parts
share with nobody else counts for much. Two parts of different questions mean the same
when the cosine of their weights reaches :data:`FOLLOW_UP_THRESHOLD` (a follow-up in the
pair) or :data:`QUESTION_THRESHOLD` (two question parts). Every part is compared with every
part of every other question, so a follow-up that repeats another question's follow-up or
the other question itself is found, and so are two questions whose key points agree.

Deterministic and offline: nothing is learnt or downloaded, so a reviewer can read why two
parts score as they do (:func:`shared_terms`, ``python -m questions.overlaps``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from questions.meaning_terms import term_counts
from questions.pack import Question

FOLLOW_UP_THRESHOLD = 0.12
"""Score at or above which two parts, at least one of them a follow-up, mean the same.

Set on the bank of issue 38's review (128 questions): of the follow-ups the review found
repeating another question or follow-up, five scored 0.126-0.217 against it (two more
repeat a derivation, found by :data:`questions.overlaps.STANDARD_DERIVATIONS`); eleven
other pairs, most of them partial repeats too, scored 0.128-0.201, and the next 0.117."""

QUESTION_THRESHOLD = 0.25
"""Score at or above which two question parts (text, key points, outline) mean the same.

Higher than :data:`FOLLOW_UP_THRESHOLD`: two questions of one topic share much of their
vocabulary, and on the bank of issue 38 the closest two distinct questions scored 0.20.
A question asked again in other words, with its key points reworded, scores far above."""

REVIEWED_DISTINCT: dict[frozenset[str], str] = {
    frozenset(("hopper-vs-ampere-features (follow-up 1)", "blackwell-gemm-vs-hopper-wgmma")): (
        "what warp specialization is and why TMA makes it practical on Hopper, against what"
        " porting such a kernel to tcgen05 changes (one-thread MMA issue, TMEM accumulators,"
        " commit barriers, epilogue overlap)"
    ),
    frozenset(("sm-occupancy-register-pressure", "gpu-util-vs-dcgm-metrics (follow-up 1)")): (
        "a kernel's theoretical occupancy from its registers and whether low occupancy hurts,"
        " against what two DCGM fields measure (time with any warp resident vs share of warp"
        " slots filled)"
    ),
    frozenset(("million-token-prefill-cost (follow-up 1)", "sliding-window-attention-kv")): (
        "the FLOPs ratio of one sliding-window layer inside a 1M-token prefill estimate (2W/N),"
        " against what a window does to KV memory, reach across layers and serving engines"
    ),
    frozenset(("nvl72-nvlink5-domain (follow-up 1)", "trainium3-ultraserver-plan (follow-up 1)")): (
        "moving EP from 8 to 64 GPUs (experts per GPU, all-to-all off the NIC), against keeping"
        " EP = 64 but going from Trn2's multi-hop torus to Trn3's single-hop switch"
    ),
    frozenset(("diloco-outer-optimizer", "inter-site-sync-interval (follow-up 1)")): (
        "how DiLoCo's inner and outer optimizers work and what it gives up, against whether"
        " FP32 or 16-bit pseudo-gradients change the sync interval and are safe"
    ),
    frozenset(("gpu-util-vs-dcgm-metrics", "gpu-power-capping (follow-up 1)")): (
        "what GPU-Util measures and which DCGM fields find a bottleneck, against telling a power"
        " cap from thermal throttling by throttle reasons, power and temperature"
    ),
}
"""Pairs of parts a reviewer read and found to ask different things, each with why.

The check still scores them but does not count them as the same. Each names two parts as
they print ("an-id" or "an-id (follow-up 2)"); the bank's tests keep every entry naming
parts of the bank that score at or above the threshold, so the list cannot go stale. Add a
pair only after reading both parts: a repeat is fixed in the pack, not here."""

OUTLINE_WEIGHT = 0.5
"""How much each term of an outline counts against a term of the question or key points."""

Weights = dict[str, float]


@dataclass(frozen=True, slots=True)
class Part:
    """A question's ask with its key points and outline, or one follow-up with its notes."""

    question: str  # the question's id
    where: str  # "question" or "follow-up 2"
    terms: Weights  # each term's count; in a scored pair, its TF-IDF weight

    def __str__(self) -> str:
        return self.question if self.where == "question" else f"{self.question} ({self.where})"

    @property
    def is_follow_up(self) -> bool:
        return self.where != "question"


@dataclass(frozen=True, slots=True)
class MeaningPair:
    """Two parts of different questions and how close their meaning is, 0 to 1."""

    first: Part
    second: Part
    score: float

    @property
    def threshold(self) -> float:
        """The score from which this kind of pair means the same."""
        both_questions = not (self.first.is_follow_up or self.second.is_follow_up)
        return QUESTION_THRESHOLD if both_questions else FOLLOW_UP_THRESHOLD

    @property
    def names(self) -> frozenset[str]:
        """The two parts as they print, in no order."""
        return frozenset((str(self.first), str(self.second)))

    @property
    def reviewed_distinct(self) -> str | None:
        """Why a reviewer found these two parts distinct, if one did."""
        return REVIEWED_DISTINCT.get(self.names)

    @property
    def close(self) -> bool:
        """Whether the score reaches this kind of pair's threshold."""
        return self.score >= self.threshold

    @property
    def same(self) -> bool:
        """Close, and not found distinct by a reviewer."""
        return self.close and self.reviewed_distinct is None

    def __str__(self) -> str:
        return f"{self.first} and {self.second} mean nearly the same ({self.score:.2f})"


def parts(question: Question) -> list[Part]:
    """The question part, then one part per follow-up."""
    asked = term_counts(question.question)
    _add(asked, term_counts("\n".join(question.key_points)))
    _add(asked, term_counts(question.outline, OUTLINE_WEIGHT))
    found = [Part(question.id, "question", asked)]
    for number, follow_up in enumerate(question.follow_ups, start=1):
        answered = term_counts(follow_up.ask)
        _add(answered, term_counts(follow_up.notes or ""))
        found.append(Part(question.id, f"follow-up {number}", answered))
    return found


def scored_pairs(questions: Sequence[Question], at_least: float = 0.05) -> list[MeaningPair]:
    """Every pair of parts of different questions scoring ``at_least``, closest first."""
    counted = [part for question in questions for part in parts(question)]
    vectors = _tf_idf([part.terms for part in counted])
    all_parts = [replace(part, terms=vector) for part, vector in zip(counted, vectors, strict=True)]
    holders: defaultdict[str, list[int]] = defaultdict(list)
    for index, vector in enumerate(vectors):
        for term in vector:
            holders[term].append(index)
    dots: defaultdict[tuple[int, int], float] = defaultdict(float)
    for term, indices in holders.items():
        for i, j in combinations(indices, 2):
            if all_parts[i].question != all_parts[j].question:
                dots[i, j] += vectors[i][term] * vectors[j][term]
    found = [
        MeaningPair(all_parts[i], all_parts[j], score)
        for (i, j), score in dots.items()
        if score >= at_least
    ]
    return sorted(found, key=lambda pair: (-pair.score, str(pair.first), str(pair.second)))


def same_meanings(questions: Sequence[Question]) -> list[MeaningPair]:
    """The pairs of parts of different questions that mean nearly the same, closest first."""
    at_least = min(FOLLOW_UP_THRESHOLD, QUESTION_THRESHOLD)
    return [pair for pair in scored_pairs(questions, at_least) if pair.same]


def shared_terms(pair: MeaningPair, count: int = 6) -> list[str]:
    """The terms that weigh most in ``pair``'s score, to show a reviewer why it scores so."""
    first, second = pair.first.terms, pair.second.terms
    weighed = sorted(((first[t] * second[t], t) for t in first if t in second), reverse=True)
    return [term for _, term in weighed[:count]]


def _tf_idf(counts: Sequence[Weights]) -> list[Weights]:
    """Each part's terms weighted by 1 + log(count) times log(parts / parts with the term),
    scaled to length 1; terms every part has weigh nothing."""
    holding: defaultdict[str, int] = defaultdict(int)
    for terms in counts:
        for term in terms:
            holding[term] += 1
    idf = {term: math.log(len(counts) / n) for term, n in holding.items()}
    vectors = []
    for terms in counts:
        raw = {t: (1 + math.log(n) if n >= 1 else n) * idf[t] for t, n in terms.items() if idf[t]}
        norm = math.sqrt(sum(w * w for w in raw.values())) or 1.0
        vectors.append({term: weight / norm for term, weight in raw.items()})
    return vectors


def _add(into: Weights, more: Weights) -> None:
    for term, count in more.items():
        into[term] = into.get(term, 0.0) + count
