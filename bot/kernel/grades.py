"""The four grades a member gives their own answer after the reveal."""

from __future__ import annotations

from enum import IntEnum

from fsrs import Rating


class Grade(IntEnum):
    """Missed, partly, good, nailed: FSRS's Again, Hard, Good and Easy (stored as 1-4)."""

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
        return Rating(int(self))

    @classmethod
    def from_word(cls, word: str) -> Grade:
        """The grade named ``word``; raises ValueError naming the four grades."""
        try:
            return cls[word.strip().upper()]
        except KeyError:
            raise ValueError(f"Unknown grade {word!r}: use {', '.join(GRADE_WORDS)}.") from None


GRADE_WORDS = tuple(g.word for g in Grade)
