"""Which of the coach's proposed ticks stand: the product's promise that no key point is ticked
without a quote from the answer that explains it.

A tick stands only if its point is one of the question's key points, not ticked already, and
its quote is a passage of the answer (case and whitespace ignored) that speaks about the topic
rather than to the grader, shares a word with its key point, says at least
:data:`MIN_NEW_WORDS` content words beyond what the question and its key points already say
(pasting the checklist explains nothing), and backs no other point. Every dropped tick keeps
its reason, for the metrics and the bench.

These are word-level checks, not understanding: they cannot tell a right explanation from a
wrong one, which is the model's job. What they guarantee is that a model which invents, flatters
or obeys the answer cannot tick a point without a passage of the answer, in the point's own
terms and more, to show for it. Insisting on one of the point's words costs the ticks of
answers that explain a point entirely in other words; the member can add those with Edit
ticks, while a false tick would break the promise.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.coach.verdict import ProposedTick
from bot.coach.wording import Normalised, content_words, normalise, normalised
from bot.kernel.grades import Grade
from bot.reviews.rubric import grade_from_coverage

MIN_NEW_WORDS = 3
_EDGE_PUNCTUATION = string.punctuation.replace("*", "").replace("_", "") + " …"

# a passage that talks to whoever grades it: an injection, never an explanation of the topic
_ADDRESSES_THE_GRADER = re.compile(
    r"""
    \b(ignore|disregard|forget)\b[^.]{0,40}\b(instructions?|rules|prompt)\b
    | \b(system|previous|prior|earlier)\ (prompt|instructions?)\b
    | \bmark(s|ed|ing)?\b[^.]{0,40}\b(covered|correct|complete|ticked)\b
    | \b(everything|all\ (the\ )?(key\ )?points|every\ (key\ )?point)\b
      [^.]{0,30}\b(covered|ticked)\b
    | \btick(s|ed|ing)?\b[^.]{0,20}\b(everything|(all|every)\b[^.]{0,15}\b(points?|boxes))\b
    | \bfull\ marks\b
    | "(ticks|point|quote)"\s*:
    """,
    re.VERBOSE,
)


class DropReason(StrEnum):
    """Why a proposed tick did not stand (a metric's label)."""

    UNKNOWN_POINT = "unknown_point"  # 0 or below: no key point is numbered so
    POINT_OUT_OF_RANGE = "point_out_of_range"  # past the question's last key point
    DUPLICATE_POINT = "duplicate_point"  # the point already stands with another quote
    EMPTY_QUOTE = "empty_quote"  # no content word at all
    QUOTE_NOT_IN_ANSWER = "quote_not_in_answer"
    ADDRESSES_THE_GRADER = "addresses_the_grader"
    OFF_THE_POINT = "off_the_point"  # not one word of its key point
    RESTATES_KEY_POINT = "restates_key_point"  # the checklist's words and too few of its own
    QUOTE_REUSED = "quote_reused"  # the passage already backs another point


@dataclass(frozen=True, slots=True)
class VerifiedTick:
    """A tick that stands; ``quote`` is the passage as the answer has it (its case, spacing
    and markup), not as the model copied it."""

    point: int
    quote: str


@dataclass(frozen=True, slots=True)
class DroppedTick:
    point: int
    quote: str
    reason: DropReason


@dataclass(frozen=True, slots=True)
class Verification:
    """What stands of a reply for a question of ``key_points`` points."""

    key_points: int
    ticks: tuple[VerifiedTick, ...]  # by point
    dropped: tuple[DroppedTick, ...]  # in the reply's order

    @property
    def quotes(self) -> dict[int, str]:
        """Each ticked point's quote."""
        return {tick.point: tick.quote for tick in self.ticks}

    @property
    def missed(self) -> tuple[int, ...]:
        """The key points no standing tick covers."""
        covered = self.quotes
        return tuple(point for point in range(1, self.key_points + 1) if point not in covered)

    @property
    def grade(self) -> Grade:
        """The grade the ticks that stand propose (the checklist's documented mapping)."""
        return grade_from_coverage(len(self.ticks), self.key_points)

    def dropped_counts(self) -> dict[DropReason, int]:
        return dict(Counter(tick.reason for tick in self.dropped))


def verify(
    proposed: Sequence[ProposedTick], *, question: str, key_points: Sequence[str], answer: str
) -> Verification:
    """The ticks of ``proposed`` that ``answer`` bears out, and why each other one fell."""
    if not key_points:
        raise ValueError("a question without key points has nothing to tick")
    checklist = _Checklist(question, key_points)
    checked = _Answer(normalise(answer))
    standing: dict[int, VerifiedTick] = {}
    dropped: list[DroppedTick] = []
    for tick in proposed:
        verdict = _verdict_on(tick, checklist, standing, checked)
        if isinstance(verdict, DropReason):
            dropped.append(DroppedTick(tick.point, tick.quote, verdict))
        else:
            standing[tick.point] = VerifiedTick(tick.point, verdict)
    ticks = tuple(standing[point] for point in sorted(standing))
    return Verification(len(key_points), ticks, tuple(dropped))


def _verdict_on(
    tick: ProposedTick,
    checklist: _Checklist,
    standing: dict[int, VerifiedTick],
    answer: _Answer,
) -> DropReason | str:
    """Why ``tick`` falls, or the passage of the answer, as the member wrote it, that it
    quotes."""
    if tick.point < 1:
        return DropReason.UNKNOWN_POINT
    if tick.point > len(checklist.points):
        return DropReason.POINT_OUT_OF_RANGE
    if tick.point in standing:
        return DropReason.DUPLICATE_POINT
    # a model adds or drops the punctuation around a passage: "…layers." for "…layers,"
    quote = normalised(tick.quote).strip(_EDGE_PUNCTUATION)
    words = content_words(quote)
    if not words:
        return DropReason.EMPTY_QUOTE
    if not answer.contains(quote):
        return DropReason.QUOTE_NOT_IN_ANSWER
    if _ADDRESSES_THE_GRADER.search(quote):
        return DropReason.ADDRESSES_THE_GRADER
    if not words & checklist.points[tick.point - 1]:
        return DropReason.OFF_THE_POINT
    if len(words - checklist.given) < MIN_NEW_WORDS:
        return DropReason.RESTATES_KEY_POINT
    passage = answer.claim(quote)
    return DropReason.QUOTE_REUSED if passage is None else passage


class _Checklist:
    """Each key point's content words, and all the words the question and checklist give."""

    def __init__(self, question: str, key_points: Sequence[str]) -> None:
        self.points = [content_words(point) for point in key_points]
        self.given = content_words(question).union(*self.points)


class _Answer:
    """The normalised answer, and the passages of it that already back a point.

    A quote is found only where it starts and ends on word boundaries: "scalable" is not a
    passage of "unscalable", nor "split layers" of "do not resplit layers".
    """

    def __init__(self, answer: Normalised) -> None:
        self._answer = answer
        self._text = answer.text
        self._claimed: list[tuple[int, int]] = []

    def contains(self, quote: str) -> bool:
        return next(self._occurrences(quote), None) is not None

    def claim(self, quote: str) -> str | None:
        """Claim an occurrence of ``quote`` that overlaps no claimed passage and return it as
        the answer has it; None if there is none."""
        for start, end in self._occurrences(quote):
            if not any(start < until and since < end for since, until in self._claimed):
                self._claimed.append((start, end))
                return self._answer.source_of(start, end)
        return None

    def _occurrences(self, quote: str) -> Iterator[tuple[int, int]]:
        start = self._text.find(quote)
        while start != -1:
            end = start + len(quote)
            if not (_cuts_a_word(self._text, start) or _cuts_a_word(self._text, end)):
                yield start, end
            start = self._text.find(quote, start + 1)


def _cuts_a_word(text: str, index: int) -> bool:
    """Whether ``index`` falls inside a word of ``text``, a contraction's included: a quote of
    "t split" from "don't split" drops the "not"."""
    before = text[index - 1] if index > 0 else ""
    after = text[index] if index < len(text) else ""
    if before.isalnum() and after.isalnum():
        return True
    if before == "'" and after.isalnum():
        return index >= 2 and text[index - 2].isalnum()
    if after == "'" and before.isalnum():
        return index + 1 < len(text) and text[index + 1].isalnum()
    return False
