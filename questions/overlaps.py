"""Questions of one bank that ask the same thing, found four ways a reviewer can check.

1. **Asks.** Every question text and every follow-up is an *ask*; each is compared with
   every ask of every other question by :func:`questions.similarity.similarity`. Two
   question texts are near-duplicates from :data:`NEAR_DUPLICATE_THRESHOLD` on, as before;
   a pair with a follow-up in it from :data:`FOLLOW_UP_THRESHOLD`, lower because a
   follow-up is short and two short texts share fewer words when they ask the same.
2. **Worked computations.** An arithmetic chain in a question's texts (``2 × 80 layers ×
   8 KV heads × 128 × 2 bytes = 327,680``) is the computation it works; two questions that
   reach the same result from at least :data:`SHARED_OPERANDS` of the same operands work
   the same computation, whatever the words around it. Single-step conversions (``70B ×
   2 bytes = 140 GB``) have too few operands to count.
3. **Standard derivations.** Some results every AI-infrastructure bank is tempted to derive
   again wherever they are useful: :data:`STANDARD_DERIVATIONS` names each with a pattern
   that finds it being worked or asked, and each may appear in one question only. A review
   that finds another repeated derivation adds it there.
4. **Meaning.** What each question asks and what its answer covers (the question with its
   key points and outline, and each follow-up with its notes) is compared with every other
   question's, follow-ups included, in a domain vocabulary where synonyms are one concept
   and figures keep their units (:mod:`questions.meaning`): a follow-up that asks again
   what another question or follow-up asks, in other words, is found by what the two
   answers cover.

"Texts" are the question, its outline, its follow-ups and their notes, its key points and
its corrections: a computation repeated in a note is repeated all the same.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from questions.meaning import same_meanings
from questions.pack import Question
from questions.similarity import NEAR_DUPLICATE_THRESHOLD, cosine, text_features

FOLLOW_UP_THRESHOLD = 0.36
"""Similarity at or above which two asks, at least one of them a follow-up, are the same.

Set from the bundled bank as it stood with its known repeats: the two follow-ups that
repeated another question's ask scored 0.41 against it, while no other pair with a
follow-up scored above 0.31."""

SHARED_OPERANDS = 3
"""Operands two worked computations with the same result must share to be the same one."""

_FLAGS = re.IGNORECASE | re.DOTALL
STANDARD_DERIVATIONS: dict[str, re.Pattern[str]] = {
    "the Young/Daly optimal checkpoint interval": re.compile(
        r"\bYoung\b|\bDaly\b|√\s*\(?\s*2\s*[·×*]?\s*C\s*[·×*]", _FLAGS
    ),
    # Tensor parallelism only: sequence parallelism (Ulysses) has a head limit of its own.
    "KV heads against a tensor-parallel degree above their count": re.compile(
        r"KV heads?\b[^.?]{0,100}?(?:TP\s*=\s*16|tensor[- ]parallel[^.?]{0,60}?replicat)"
        r"|TP\s*=\s*16[^.?]{0,100}?KV heads?\b"
        r"|(?:\bTP\b|tensor[- ]parallel)[^.?]{0,160}?heads are replicated",
        _FLAGS,
    ),
    "decode's arithmetic intensity (the batch size) against the roofline ridge": re.compile(
        r"\b(?:B|batch(?: size)?)\b[^.?]{0,30}FLOPs?/byte"
        r"|intensity\s*(?:≈|~|of|is)\s*(?:about\s*)?(?:B|batch)\b"
        r"|what (?:B|batch(?: size)?) makes"
        r"|(?:memory|bandwidth)-bound until (?:a )?batch"
        r"|batch (?:size )?at which decode becomes compute-bound",
        _FLAGS,
    ),
    "the definition of a rail-optimised fabric": re.compile(
        r"(?:NIC|GPU) i of (?:every|each) node[^.]{0,120}leaf(?: switch)? i\b", _FLAGS
    ),
    "the 16 bytes per parameter of mixed-precision Adam, part by part": re.compile(
        r"2 bytes.{0,120}?2 bytes.{0,200}?(?:master|12 bytes)", _FLAGS
    ),
    # Issue 38's review: both the speed ladder and GPUDirect RDMA worked this.
    "a 400 Gb/s NIC's 50 GB/s against a PCIe Gen5 x16 slot": re.compile(
        r"\b400\s*Gb/s\b[^.]{0,40}?\b50\s*GB/s.{0,160}?Gen\s?5|Gen\s?5 x16[^.]{0,80}?\b400\s*Gb/s",
        _FLAGS,
    ),
    "a MIG 1g slice's eighth of the memory bandwidth": re.compile(
        r"\b1g\b[^.]{0,80}?1/8|1/8 of the (?:HBM |memory )?bandwidth", _FLAGS
    ),
}
"""Derivations worked or asked in one question only, each found by its pattern."""

_NUMBER = r"\d+(?:[.,]\d+)*(?:e-?\d+)?"
_UNIT = r"(?:\s+(?:[A-Za-z%µ][\w%µ/-]*|\([^()]{1,24}\))){0,3}"
_OPERATOR = r"(?:\s*[×*·÷/+−]\s*|\s+[x-]\s+)"
_COMPUTATION = re.compile(
    rf"{_NUMBER}{_UNIT}(?:{_OPERATOR}\(?{_NUMBER}{_UNIT}\)?)+\s*(?:=|≈)\s*~?\s*{_NUMBER}"
)


@dataclass(frozen=True, slots=True)
class Ask:
    """A question text or one of its follow-ups, and where it is."""

    question: str  # the question's id
    where: str  # "question" or "follow-up 2"
    text: str

    def __str__(self) -> str:
        return self.question if self.where == "question" else f"{self.question} ({self.where})"


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two (or more) questions that ask the same thing, and why the check says so."""

    questions: tuple[str, ...]
    reason: str

    def __str__(self) -> str:
        return f"{' and '.join(self.questions)}: {self.reason}"


def asks(question: Question) -> list[Ask]:
    """The question text and each follow-up."""
    found = [Ask(question.id, "question", question.question)]
    for number, follow_up in enumerate(question.follow_ups, start=1):
        found.append(Ask(question.id, f"follow-up {number}", follow_up.ask))
    return found


def texts(question: Question) -> Iterator[str]:
    """Every text of a question a computation or a derivation can appear in."""
    yield question.question
    yield question.outline
    for follow_up in question.follow_ups:
        yield follow_up.ask
        if follow_up.notes is not None:
            yield follow_up.notes
    yield from question.key_points
    for correction in question.corrections:
        yield correction.fact


def overlaps(questions: Sequence[Question]) -> list[Overlap]:
    """Every overlap the four checks find among ``questions``."""
    return [
        *repeated_asks(questions),
        *repeated_computations(questions),
        *repeated_derivations(questions),
        *repeated_meanings(questions),
    ]


def repeated_asks(questions: Sequence[Question]) -> list[Overlap]:
    """Pairs of asks of different questions that ask nearly the same, worst first."""
    all_asks = [ask for question in questions for ask in asks(question)]
    features = {ask: text_features(ask.text) for ask in all_asks}
    found: list[tuple[float, Overlap]] = []
    for a, b in combinations(all_asks, 2):
        if a.question == b.question:
            continue
        both_questions = a.where == b.where == "question"
        threshold = NEAR_DUPLICATE_THRESHOLD if both_questions else FOLLOW_UP_THRESHOLD
        if (score := cosine(features[a], features[b])) >= threshold:
            reason = f"{a} and {b} ask nearly the same ({score:.2f})"
            found.append((score, Overlap((a.question, b.question), reason)))
    return [overlap for _, overlap in sorted(found, key=lambda pair: -pair[0])]


def repeated_meanings(questions: Sequence[Question]) -> list[Overlap]:
    """Pairs of parts of different questions that mean nearly the same, closest first."""
    return [
        Overlap((pair.first.question, pair.second.question), str(pair))
        for pair in same_meanings(questions)
    ]


@dataclass(frozen=True, slots=True)
class Computation:
    """An arithmetic chain as written, with its operands and its result."""

    text: str
    operands: Counter[float]
    result: float


def computations(text: str) -> list[Computation]:
    """The arithmetic chains of ``text`` that end in ``=`` or ``≈`` and a result."""
    found = []
    for match in _COMPUTATION.finditer(text):
        numbers = [_value(n) for n in re.findall(_NUMBER, match.group(0))]
        found.append(Computation(match.group(0), Counter(numbers[:-1]), numbers[-1]))
    return found


def repeated_computations(questions: Sequence[Question]) -> list[Overlap]:
    """Pairs of questions that work the same computation: same result, shared operands."""
    worked = {q.id: [c for text in texts(q) for c in computations(text)] for q in questions}
    found = []
    for a, b in combinations(questions, 2):
        for ca in worked[a.id]:
            same = next((cb for cb in worked[b.id] if _same_computation(ca, cb)), None)
            if same is not None:
                reason = f"both work {ca.text!r} ({same.text!r})"
                found.append(Overlap((a.id, b.id), reason))
                break
    return found


def repeated_derivations(questions: Sequence[Question]) -> list[Overlap]:
    """Each standard derivation found in more than one question."""
    found = []
    for name, pattern in STANDARD_DERIVATIONS.items():
        where = [q.id for q in questions if any(pattern.search(text) for text in texts(q))]
        if len(where) > 1:
            found.append(Overlap(tuple(where), f"each works or asks {name}"))
    return found


def _same_computation(a: Computation, b: Computation) -> bool:
    if not _close(a.result, b.result):
        return False
    return sum((a.operands & b.operands).values()) >= SHARED_OPERANDS


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 0.01 * max(abs(a), abs(b))


def _value(number: str) -> float:
    """``327,680`` and ``1.12`` as numbers; a comma between digit groups of three is a
    thousands separator."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?:e-?\d+)?", number):
        number = number.replace(",", "")
    try:
        return float(number.replace(",", "."))
    except ValueError:
        return float("nan")


if __name__ == "__main__":
    from questions.overlap_report import main

    raise SystemExit(main())
