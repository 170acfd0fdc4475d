"""How hard a question is for a member's team, learned from the team's first grades of it.

A question is hard or easy for everyone: a teammate's first answer tells something about
yours. A member's recall on first sight of a question they never graded is their level
(the learned prior of :mod:`bot.learning.first_sight`) moved by the question's
difficulty, an offset on the logit of recall::

    question = (recalled_q + K * team) / (first_q + K)      # the team's first sights of it
    offset   = logit(question) - logit(team)
    recall   = sigmoid(logit(member) + offset)

``team`` is the rate the member's team recalls questions on first sight (the prior's team
level, see :meth:`~bot.learning.first_sight.FirstSights.team_rate`), so a question nobody
has seen has no offset and the member's level is the estimate, and the question's own
rate counts for more as teammates see it. K, how many first sights the team's rate counts
as, is read from the team's own questions (:func:`question_strength`): where questions
differ little, a few lucky first sights are mostly luck and K is large; where they differ
widely, K is small. The offset and K are read from the team's first grades as they stand
(no setting): a new first grade counts at the next read.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # first_sight builds the priors with this module
    from bot.learning.first_sight import FirstGrades

# K until the team's questions show their spread: questions' first-sight recall spreads
# about one unit of logit around the team's (a question a fifth of a team recalls next to
# one half of it recalls); at a team rate of about 0.3 that is a spread of about 0.2 in
# recall, and one first sight is a coin of variance about 0.21, so K = 0.21 / 0.2**2 ~ 5
# first sights weigh as much as the spread between questions, rounded down to 4.
PSEUDO_TEAMMATES = 4.0
# The spread is read once the team has first sights of this many questions, this many in
# all (fewer: the estimate of the spread is noisier than the default is wrong).
MIN_QUESTIONS_SEEN = 8
MIN_FIRST_SIGHTS = 40
# K read from the spread is kept within these: 1 (one first sight as much as the team's
# rate) to 64 (questions alike: a question's own first sights barely move it).
MIN_STRENGTH = 1.0
MAX_STRENGTH = 64.0
# Rates are kept this far from 0 and 1 before their logit is taken.
_EDGE = 1e-3


def logit(rate: float) -> float:
    rate = min(1.0 - _EDGE, max(_EDGE, rate))
    return math.log(rate / (1.0 - rate))


def sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


def difficulty_offset(
    seen: FirstGrades, team_rate: float, strength: float = PSEUDO_TEAMMATES
) -> float:
    """The logit offset of a question the team saw ``seen`` times on first sight: below 0
    for a question harder than the team's others, 0 when nobody saw it."""
    if not seen.graded:
        return 0.0
    return logit(seen.shrunk(team_rate, strength)) - logit(team_rate)


def question_strength(questions: Iterable[FirstGrades]) -> float:
    """K for a team whose first sights of each question are ``questions``: the
    empirical-Bayes weight, the variance of one first sight over the variance between
    questions' recall rates.

    The between-question variance is the method-of-moments (DerSimonian-Laird) estimate:
    what the rates spread around the team's pooled rate beyond what their counts alone
    would spread. It includes any difference between topics (the team's rate is pooled
    over them), which errs toward a smaller K, i.e. toward the question's own rate.
    """
    seen = [q for q in questions if q.graded]
    total = sum(q.graded for q in seen)
    if len(seen) < MIN_QUESTIONS_SEEN or total < MIN_FIRST_SIGHTS:
        return PSEUDO_TEAMMATES
    rate = sum(q.recalled for q in seen) / total
    coin = rate * (1.0 - rate)  # the variance of one first sight
    if coin == 0.0:
        return PSEUDO_TEAMMATES
    spread = sum(q.graded * (q.recalled / q.graded - rate) ** 2 for q in seen)
    weight = total - sum(q.graded**2 for q in seen) / total
    between = (spread - (len(seen) - 1) * coin) / weight
    if between <= coin / MAX_STRENGTH:
        return MAX_STRENGTH
    return max(MIN_STRENGTH, coin / between)


def first_sight_recall(level: float, offset: float) -> float:
    """A member of ``level`` recalls a question of ``offset`` on first sight this often."""
    if offset == 0.0:
        return level
    return sigmoid(logit(level) + offset)
