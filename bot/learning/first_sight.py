"""How well a member knows a question before practising it: the prior recall, learned.

A question a member has never graded has no FSRS card, yet the practice forecast needs the
chance that they recall it on first sight. It is estimated from first grades: the first
grade each member gave each question (a round's or practice's, as it stands now) is a
first sight, recalled unless graded missed ("partly" is a lapse to FSRS, but was partly
recalled). The member's own first sights come first; while they are few the estimate
leans on their team's (the other members of their workspace), then on the topic's (every
member's first sights of that topic's questions), then on :data:`DEFAULT_PRIOR_RECALL`.
Each level is shrunk toward the next as a beta prior of :data:`PSEUDO_FIRST_GRADES` first
sights at the next level's rate::

    topic  = (recalled_topic  + K * default) / (first_topic  + K)
    team   = (recalled_team   + K * topic)   / (first_team   + K)
    member = (recalled_member + K * team)    / (first_member + K)

so ten of the member's own first sights weigh a little more than the levels behind them,
and forty make the estimate essentially theirs. A question's own difficulty, as the team's
first grades of it show, then moves the member's level question by question (see
:mod:`bot.learning.question_difficulty`). It is recomputed from the grades, with
nothing to set or keep in step: the member's own first grades on every use, the team's
and the topic's (every member's, a scan of the whole review log) at most every
:data:`CROWD_REFRESH` (see :class:`~bot.learning.service.LearningService`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from bot.learning.question_difficulty import (
    difficulty_offset,
    first_sight_recall,
    question_strength,
)

# The prior recall with no first grade anywhere: the middle of what a team new to a
# field (0.05) and a team of seniors (0.6) recall on first sight, leaning low.
DEFAULT_PRIOR_RECALL = 0.2
# K: how many first sights the next level's rate counts as. Learners' first-sight recall
# spreads about 0.16 around its mean (0.05-0.6) and one first sight is a coin of variance
# about 0.2, so the evidence of K = 0.2 / 0.16**2 ~ 8 first sights weighs as much as the
# spread between members: the empirical-Bayes weight.
PSEUDO_FIRST_GRADES = 8.0
# How long the team's and the topic's first grades are counted on before being read again:
# they move slowly, and reading them scans every member's grades.
CROWD_REFRESH = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class FirstGrades:
    """First sights of questions: how many, and how many of them were graded missed."""

    graded: int = 0
    missed: int = 0

    @property
    def recalled(self) -> int:
        return self.graded - self.missed

    def __add__(self, other: FirstGrades) -> FirstGrades:
        return FirstGrades(self.graded + other.graded, self.missed + other.missed)

    def shrunk(self, toward: float, strength: float = PSEUDO_FIRST_GRADES) -> float:
        """The recall rate of these first sights, shrunk toward ``toward``."""
        return (self.recalled + strength * toward) / (self.graded + strength)


NONE = FirstGrades()


@dataclass(frozen=True, slots=True)
class FirstSights:
    """The first grades a member's prior is estimated from, per topic of the question."""

    member: Mapping[str, FirstGrades] = field(default_factory=dict)  # the member's own
    team: Mapping[str, FirstGrades] = field(default_factory=dict)  # their workspace's others
    everyone: Mapping[str, FirstGrades] = field(default_factory=dict)  # all, them included
    # the first sights of each question by the member's workspace (question id -> counts)
    questions: Mapping[int, FirstGrades] = field(default_factory=dict)
    # K of a question's first sights, read from ``questions`` (see question_strength)
    question_weight: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "question_weight", question_strength(self.questions.values()))

    def team_rate(self, topic: str | None = None) -> float:
        """The member's team's recall on first sight of a question of ``topic`` (None: of no
        known topic, the topic level is then every topic's first sights)."""
        if topic is None:
            at_topic = sum(self.everyone.values(), NONE)
        else:
            at_topic = self.everyone.get(topic, NONE)
        rate = at_topic.shrunk(DEFAULT_PRIOR_RECALL)
        return sum(self.team.values(), NONE).shrunk(rate)

    def prior(self, topic: str | None = None) -> float:
        """The member's level: their recall on first sight of a question of ``topic`` of
        which nothing else is known."""
        return sum(self.member.values(), NONE).shrunk(self.team_rate(topic))

    def question_prior(self, question_id: int, topic: str | None = None) -> float:
        """The member's recall on first sight of this question: their level moved by the
        question's difficulty as the team's first grades of it show."""
        seen = self.questions.get(question_id, NONE)
        offset = difficulty_offset(seen, self.team_rate(topic), self.question_weight)
        return first_sight_recall(self.prior(topic), offset)

    def priors(self, topics: Mapping[int, str]) -> dict[int, float]:
        """The prior of each question of ``topics`` (question id -> topic)."""
        by_topic = {topic: self.prior(topic) for topic in set(topics.values())}
        team = {topic: self.team_rate(topic) for topic in by_topic}
        priors: dict[int, float] = {}
        for question_id, topic in topics.items():
            seen = self.questions.get(question_id, NONE)
            offset = difficulty_offset(seen, team[topic], self.question_weight)
            priors[question_id] = first_sight_recall(by_topic[topic], offset)
        return priors


@dataclass(frozen=True, slots=True)
class FirstGradeCount:
    """First sights of one workspace's members of one topic's questions."""

    platform: str
    workspace: str
    topic: str | None  # None: a member with no first grade (only their workspace is known)
    grades: FirstGrades


def first_sights(
    own: Iterable[FirstGradeCount],
    crowd: Iterable[FirstGradeCount],
    questions: Mapping[int, FirstGrades] | None = None,
) -> FirstSights:
    """A member's first sights from their own counts and every member's (``crowd``, which
    may be a little older: the member's own are taken out of their workspace's, never
    below none), and their workspace's of each question (``questions``)."""
    own = list(own)
    mine = {c.topic: c.grades for c in own if c.topic is not None and c.grades.graded}
    places = {(c.platform, c.workspace) for c in own}
    team: dict[str, FirstGrades] = {}
    everyone: dict[str, FirstGrades] = {}
    for count in crowd:
        if count.topic is None:
            continue
        everyone[count.topic] = everyone.get(count.topic, NONE) + count.grades
        if (count.platform, count.workspace) in places:
            team[count.topic] = team.get(count.topic, NONE) + count.grades
    for topic, grades in mine.items():
        left = team.pop(topic, NONE)
        graded = max(0, left.graded - grades.graded)
        others = FirstGrades(graded, min(graded, max(0, left.missed - grades.missed)))
        if others.graded:
            team[topic] = others
        # the crowd may be older than the member's own counts
        everyone[topic] = _at_least(everyone.get(topic, NONE), grades)
    return FirstSights(member=mine, team=team, everyone=everyone, questions=questions or {})


def _at_least(counts: FirstGrades, floor: FirstGrades) -> FirstGrades:
    if counts.graded >= floor.graded:
        return counts
    return floor
