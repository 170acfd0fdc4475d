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
rate counts for more as teammates see it: K = :data:`PSEUDO_TEAMMATES` first sights. The
offset is read from the team's first grades of the question as they stand on every use
(no setting, nothing cached): a new first grade counts at the next choice.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # first_sight builds the priors with this module
    from bot.learning.first_sight import FirstGrades

# K: how many teammates' first sights the team's rate counts as for a question. Questions'
# first-sight recall spreads about one unit of logit around the team's (a question a fifth
# of a team recalls next to one half of it recalls); at a team rate of about 0.3 that is a
# spread of about 0.2 in recall, and one first sight is a coin of variance about 0.21, so
# K = 0.21 / 0.2**2 ~ 5 first sights weigh as much as the spread between questions: the
# empirical-Bayes weight, rounded down to 4 (not tuned: bench/learning.py --team measured
# this value only; see bench/README.md for where a narrower spread would want more).
PSEUDO_TEAMMATES = 4.0
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


def first_sight_recall(level: float, offset: float) -> float:
    """A member of ``level`` recalls a question of ``offset`` on first sight this often."""
    if offset == 0.0:
        return level
    return sigmoid(logit(level) + offset)
