"""A question's first-sight recall for a member: their level moved by the question's
difficulty as their team's first grades of it show, shrunk toward the level while few
teammates have seen it."""

from __future__ import annotations

import pytest

from bot.learning.first_sight import FirstGrades, FirstSights
from bot.learning.question_difficulty import (
    MAX_STRENGTH,
    MIN_STRENGTH,
    PSEUDO_TEAMMATES,
    difficulty_offset,
    first_sight_recall,
    logit,
    question_strength,
)

TEAM = {"gpu": FirstGrades(200, 140)}  # the team recalls 30% of questions on first sight
MEMBER = {"gpu": FirstGrades(40, 20)}  # the member recalls half


def sights(questions: dict[int, FirstGrades]) -> FirstSights:
    return FirstSights(member=MEMBER, team=TEAM, everyone=TEAM, questions=questions)


def test_a_question_no_teammate_has_seen_is_the_members_level() -> None:
    member = sights({})
    assert member.priors({7: "gpu"})[7] == member.prior("gpu")
    assert member.question_prior(7, "gpu") == member.prior("gpu")


def test_one_teammate_moves_it_a_little_and_many_make_it_the_questions() -> None:
    level = sights({}).prior("gpu")
    one = sights({7: FirstGrades(1, 0)}).priors({7: "gpu"})[7]
    many = sights({7: FirstGrades(200, 0)}).priors({7: "gpu"})[7]
    assert level < one < many
    # one recalled first sight of five counts for a fifth of the question's rate
    team = sights({}).team_rate("gpu")
    shrunk = (1 + PSEUDO_TEAMMATES * team) / (1 + PSEUDO_TEAMMATES)
    assert one == pytest.approx(first_sight_recall(level, logit(shrunk) - logit(team)), abs=1e-12)
    assert many > 0.95  # everybody recalls it: so does this member, nearly surely


def test_a_question_everyone_misses_is_hard_for_the_member_too() -> None:
    level = sights({}).prior("gpu")
    missed = sights({7: FirstGrades(12, 12)}).priors({7: "gpu", 8: "gpu"})
    assert missed[8] == level  # the other question is untouched
    assert missed[7] < level / 3
    assert missed[7] > 0.0


def test_the_offset_is_zero_without_first_sights_and_signed_by_the_questions_rate() -> None:
    assert difficulty_offset(FirstGrades(), 0.3) == 0.0
    assert difficulty_offset(FirstGrades(10, 10), 0.3) < 0.0
    assert difficulty_offset(FirstGrades(10, 0), 0.3) > 0.0
    assert first_sight_recall(0.4, 0.0) == 0.4


def _team_of_questions(recalled_of_ten: list[int]) -> dict[int, FirstGrades]:
    """A team's first sights of questions 100, 101, ...: ten each, ``recalled`` of them."""
    return {100 + n: FirstGrades(10, 10 - recalled) for n, recalled in enumerate(recalled_of_ten)}


def test_a_team_whose_questions_differ_little_shrinks_a_new_questions_first_sights_harder() -> None:
    # Two teams with the same overall first-sight rate (30%): in one every question is
    # recalled 3 times in 10, in the other questions are either easy or hard. Two first
    # sights, both recalled, of a new question say more in the second team: there questions
    # do differ, while in the first two lucky answers are most likely luck.
    alike = _team_of_questions([3] * 30)
    apart = _team_of_questions([0, 6] * 15)
    for team in (alike, apart):
        assert sum(q.recalled for q in team.values()) == 90
    new = {7: FirstGrades(2, 0)}
    level = sights({}).prior("gpu")
    in_alike = sights(alike | new).priors({7: "gpu"})[7]
    in_apart = sights(apart | new).priors({7: "gpu"})[7]
    assert level < in_alike < in_apart
    assert in_alike - level < (in_apart - level) / 4


def test_the_weight_is_read_from_the_teams_questions_once_enough_were_seen() -> None:
    assert question_strength(_team_of_questions([3] * 30).values()) == MAX_STRENGTH
    wide = question_strength(_team_of_questions([0, 6] * 15).values())
    assert MIN_STRENGTH <= wide < PSEUDO_TEAMMATES
    # with a few questions seen, the spread cannot be read yet: the documented default
    assert question_strength(_team_of_questions([0, 6]).values()) == PSEUDO_TEAMMATES
    assert question_strength([]) == PSEUDO_TEAMMATES
    # every first sight recalled (or none): no coin to weigh, the default
    assert question_strength(_team_of_questions([10] * 30).values()) == PSEUDO_TEAMMATES
