"""How well a member knows a question before practising it: the prior recall, learned.

A question a member has never graded has no FSRS card, yet the practice forecast needs the
chance that they recall it on first sight. It is estimated from first grades: the first
grade each member gave each question (a round's or practice's, as it stands now) is a
first sight, recalled unless graded missed. The member's own first sights come first;
while they are few the estimate leans on their team's (the other members of their
workspace), then on the topic's (every member's first sights of that topic's questions),
then on :data:`DEFAULT_PRIOR_RECALL`. Each level is shrunk toward the next as a beta
prior of :data:`PSEUDO_FIRST_GRADES` first sights at the next level's rate::

    topic  = (recalled_topic  + K * default) / (first_topic  + K)
    team   = (recalled_team   + K * topic)   / (first_team   + K)
    member = (recalled_member + K * team)    / (first_member + K)

so ten of the member's own first sights weigh a little more than the levels behind them,
and forty make the estimate essentially theirs. It is recomputed from the grades on every
use: nothing to set, nothing to keep in step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# The prior recall with no first grade anywhere: the middle of what a team new to a
# field (0.05) and a team of seniors (0.6) recall on first sight, leaning low.
DEFAULT_PRIOR_RECALL = 0.2
# K: how many first sights the next level's rate counts as. Learners' first-sight recall
# spreads about 0.16 around its mean (0.05-0.6) and one first sight is a coin of variance
# about 0.2, so the evidence of K = 0.2 / 0.16**2 ~ 8 first sights weighs as much as the
# spread between members: the empirical-Bayes weight.
PSEUDO_FIRST_GRADES = 8.0


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

    def prior(self, topic: str | None = None) -> float:
        """The member's recall on first sight of a question of ``topic`` (None: of no known
        topic, the topic level is then every topic's first sights)."""
        if topic is None:
            at_topic = sum(self.everyone.values(), NONE)
        else:
            at_topic = self.everyone.get(topic, NONE)
        rate = at_topic.shrunk(DEFAULT_PRIOR_RECALL)
        rate = sum(self.team.values(), NONE).shrunk(rate)
        return sum(self.member.values(), NONE).shrunk(rate)

    def priors(self, topics: Mapping[int, str]) -> dict[int, float]:
        """The prior of each question of ``topics`` (question id -> topic)."""
        by_topic = {topic: self.prior(topic) for topic in set(topics.values())}
        return {question_id: by_topic[topic] for question_id, topic in topics.items()}
