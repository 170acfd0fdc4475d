"""The four grades a member gives their own answer after the reveal."""

from __future__ import annotations

from enum import IntEnum

from fsrs import Rating


class Grade(IntEnum):
    """Missed, partly, good, nailed (stored as 1-4). To FSRS, "partly" is a lapse like
    "missed" (Again), not Hard: with self-grades as noisy and kind as people's are, that
    measured better (bench/self_grading.py); "good" and "nailed" are Good and Easy."""

    MISSED = 1
    PARTLY = 2
    GOOD = 3
    NAILED = 4

    @property
    def word(self) -> str:
        """What members type and see: ``missed``, ``partly``, ``good``, ``nailed``."""
        return self.name.lower()

    @property
    def rating(self) -> Rating:
        """The FSRS rating this grade reviews a card with."""
        return _RATINGS[self]

    @classmethod
    def from_word(cls, word: str) -> Grade:
        """The grade named ``word``; raises ValueError naming the four grades."""
        try:
            return cls[word.strip().upper()]
        except KeyError:
            raise ValueError(f"Unknown grade {word!r}: use {', '.join(GRADE_WORDS)}.") from None


GRADE_WORDS = tuple(g.word for g in Grade)
_RATINGS = {
    Grade.MISSED: Rating.Again,
    Grade.PARTLY: Rating.Again,
    Grade.GOOD: Rating.Good,
    Grade.NAILED: Rating.Easy,
}
