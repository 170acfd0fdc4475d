"""The prior recall is learned from first grades, on both backends: a member's first
grade of each question (a later grade of the same question, or a changed round grade, is
no first sight), their workspace's others' and everyone's per topic, and the shrinkage
from the default through topic and team to the member as the evidence grows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning.first_sight import (
    CROWD_REFRESH,
    DEFAULT_PRIOR_RECALL,
    PSEUDO_FIRST_GRADES,
    FirstGradeCount,
    FirstGrades,
    FirstSights,
    first_sights,
)
from bot.learning.service import LearningService, RoundToGrade
from bot.store import Store
from questions.catalog import QuestionKey
from tests.storage.backends import BACKENDS, open_store

T0 = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
K = PSEUDO_FIRST_GRADES
_reads = iter(range(1, 10_000))


def later() -> datetime:
    """A moment past the last, by more than the crowd's refresh: every member's first
    grades are read again."""
    return T0 + next(_reads) * 2 * CROWD_REFRESH


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def bank(store: Store, count: int = 60) -> dict[int, str]:
    keys = [QuestionKey("p", f"q{n}", ("gpu", "net")[n % 2], f"h{n}") for n in range(count)]
    ids = await store.rounds.sync_questions(keys)
    return {ids[("p", key.question)]: key.topic for key in keys}


async def member(store: Store, name: str, workspace: str = "team") -> int:
    return await store.members.member_id(MemberRef("fake", workspace, name, name))


async def first_grades(
    learning: LearningService, who: int, questions: list[int], grade: Grade
) -> None:
    for n, question in enumerate(questions):
        await learning.grade(who, question, grade, T0 + timedelta(hours=n))


async def test_no_grade_anywhere_is_the_default(store: Store) -> None:
    await bank(store)
    learning = LearningService(store.learning, dict)
    alice = await member(store, "alice")
    assert await learning.prior_recall(alice, later()) == DEFAULT_PRIOR_RECALL
    assert await learning.prior_recall(alice, later(), "gpu") == DEFAULT_PRIOR_RECALL


async def test_a_few_first_grades_move_the_prior_a_little_and_many_make_it_theirs(
    store: Store,
) -> None:
    questions = sorted(await bank(store))
    learning = LearningService(store.learning, dict)
    alice = await member(store, "alice")
    await first_grades(learning, alice, questions[:2], Grade.GOOD)
    few = await learning.prior_recall(alice, later())
    # two first sights recalled: the topic level and then the member's move toward 1
    everyone = FirstGrades(2, 0).shrunk(DEFAULT_PRIOR_RECALL)  # all topics' (None)
    assert few == pytest.approx(FirstGrades(2, 0).shrunk(everyone))
    assert DEFAULT_PRIOR_RECALL < few < 0.6
    await first_grades(learning, alice, questions[2:50], Grade.MISSED)
    many = await learning.prior_recall(alice, later())
    # 50 first sights, 2 recalled: close to their own 4%, far from the default
    assert many == pytest.approx(FirstGrades(50, 48).shrunk(FirstGrades(50, 48).shrunk(0.2)))
    assert 0.04 < many < 0.07


async def test_a_member_who_misses_every_new_question_and_one_who_nails_every_one(
    store: Store,
) -> None:
    questions = sorted(await bank(store))
    learning = LearningService(store.learning, dict)
    novice, senior = await member(store, "novice"), await member(store, "senior")
    await first_grades(learning, novice, questions[:40], Grade.MISSED)
    await first_grades(learning, senior, questions[:40], Grade.NAILED)
    low, high = (
        await learning.prior_recall(novice, later()),
        await learning.prior_recall(senior, later()),
    )
    everyone = FirstGrades(80, 40).shrunk(DEFAULT_PRIOR_RECALL)  # both, all topics
    # each leans a little on the team, which is the other one
    assert low == pytest.approx(FirstGrades(40, 40).shrunk(FirstGrades(40, 0).shrunk(everyone)))
    assert high == pytest.approx(FirstGrades(40, 0).shrunk(FirstGrades(40, 40).shrunk(everyone)))
    assert 0 < low < DEFAULT_PRIOR_RECALL  # never 0: a new question may still be known
    assert 0.8 < high < 1  # never 1: a new question may still be missed
    # a teammate with no grade of their own leans on the team: half missed, half nailed
    newcomer = await member(store, "newcomer")
    assert 0.4 < await learning.prior_recall(newcomer, later()) < 0.6


async def test_only_first_grades_count_and_a_changed_round_grade_is_the_first(
    store: Store,
) -> None:
    topics = await bank(store)
    questions = sorted(topics)
    learning = LearningService(store.learning, dict)
    alice = await member(store, "alice")
    # missed on first sight, then good ten times: one first sight, missed
    for n in range(11):
        grade = Grade.MISSED if n == 0 else Grade.GOOD
        await learning.grade(alice, questions[0], grade, T0 + timedelta(days=n))
    sights = await learning.first_sights(alice, later())
    assert sights.member == {"gpu": FirstGrades(1, 1)}
    channel = await store.channels.create_channel(
        ChannelSettings(0, ChannelRef("fake", "team", "C1"), "UTC")
    )
    round_ = await store.rounds.create_round(
        channel.id,
        lambda _: questions[1],
        T0,
        scheduled=True,
        created_at=T0,
        actions=[ActionKind.QUESTION],
    )
    assert round_ is not None
    to_grade = RoundToGrade(round_.id, channel.id, questions[1], revealed=True)
    await learning.grade_round(to_grade, alice, Grade.MISSED, T0)
    await learning.grade_round(to_grade, alice, Grade.GOOD, T0 + timedelta(hours=1))
    sights = await learning.first_sights(alice, later())
    assert sights.member == {"gpu": FirstGrades(1, 1), "net": FirstGrades(1, 0)}


async def test_team_and_topic_levels_are_whose_they_say(store: Store) -> None:
    questions = sorted(await bank(store))
    learning = LearningService(store.learning, dict)
    alice, bob = await member(store, "alice"), await member(store, "bob")
    outsider = await member(store, "carol", workspace="elsewhere")
    await first_grades(learning, bob, questions[:4], Grade.MISSED)  # 2 gpu, 2 net
    await first_grades(learning, outsider, questions[:2], Grade.GOOD)  # 1 gpu, 1 net
    sights = await learning.first_sights(alice, later())
    assert sights.member == {}
    assert sights.team == {"gpu": FirstGrades(2, 2), "net": FirstGrades(2, 2)}
    assert sights.everyone == {"gpu": FirstGrades(3, 2), "net": FirstGrades(3, 2)}
    expected = FirstGrades(4, 4).shrunk(FirstGrades(3, 2).shrunk(DEFAULT_PRIOR_RECALL))
    assert sights.prior("gpu") == pytest.approx(expected)


def test_the_shrinkage_chain() -> None:
    sights = FirstSights(
        member={"gpu": FirstGrades(10, 2)},
        team={"gpu": FirstGrades(20, 10)},
        everyone={"gpu": FirstGrades(40, 20), "net": FirstGrades(8, 8)},
    )
    topic = (20 + K * DEFAULT_PRIOR_RECALL) / (40 + K)
    team = (10 + K * topic) / (20 + K)
    assert sights.prior("gpu") == pytest.approx((8 + K * team) / (10 + K))
    net_topic = (0 + K * DEFAULT_PRIOR_RECALL) / (8 + K)
    net_team = (10 + K * net_topic) / (20 + K)
    assert sights.prior("net") == pytest.approx((8 + K * net_team) / (10 + K))
    assert sights.priors({1: "gpu", 2: "net"}) == {1: sights.prior("gpu"), 2: sights.prior("net")}


async def test_the_crowd_is_read_again_after_its_refresh_and_the_member_at_once(
    store: Store,
) -> None:
    questions = sorted(await bank(store))
    learning = LearningService(store.learning, dict)
    alice, bob = await member(store, "alice"), await member(store, "bob")
    at = T0 + timedelta(days=30)
    assert (await learning.first_sights(alice, at)).team == {}
    await first_grades(learning, bob, questions[:2], Grade.MISSED)
    await first_grades(learning, alice, questions[2:4], Grade.GOOD)
    soon = await learning.first_sights(alice, at + CROWD_REFRESH / 2)
    assert soon.member == {"gpu": FirstGrades(1, 0), "net": FirstGrades(1, 0)}  # at once
    assert soon.team == {}  # bob's first grades are not read yet
    fresh = await learning.first_sights(alice, at + CROWD_REFRESH)
    assert fresh.team == {"gpu": FirstGrades(1, 1), "net": FirstGrades(1, 1)}
    assert fresh.everyone == {"gpu": FirstGrades(2, 1), "net": FirstGrades(2, 1)}


def test_own_counts_newer_than_the_crowd_never_make_it_negative() -> None:
    own = [FirstGradeCount("fake", "team", "gpu", FirstGrades(5, 0))]
    crowd = [FirstGradeCount("fake", "team", "gpu", FirstGrades(6, 3))]  # 3 of them own
    sights = first_sights(own, crowd)
    assert sights.team == {"gpu": FirstGrades(1, 1)}
    assert sights.everyone == {"gpu": FirstGrades(6, 3)}
    newer = first_sights([FirstGradeCount("fake", "team", "gpu", FirstGrades(9, 1))], crowd)
    assert newer.team == {}
    assert newer.everyone == {"gpu": FirstGrades(9, 1)}
    assert 0 < newer.prior("gpu") < 1


async def test_teammates_first_grades_of_a_question_set_its_difficulty_for_the_member(
    store: Store,
) -> None:
    topics = await bank(store)
    questions = sorted(topics)
    learning = LearningService(store.learning, lambda: topics)
    alice = await member(store, "alice")
    teammates = [await member(store, f"mate{n}") for n in range(6)]
    stranger = await member(store, "stranger", workspace="elsewhere")
    hard, easy, unseen = questions[0], questions[2], questions[4]
    for mate in teammates:
        await first_grades(learning, mate, [hard], Grade.MISSED)
        await first_grades(learning, mate, [easy], Grade.GOOD)
    # another workspace's first sights tell nothing of this team's questions
    await first_grades(learning, stranger, [unseen], Grade.MISSED)
    sights = await learning.first_sights(alice, later())
    assert sights.questions[hard] == FirstGrades(6, 6)
    assert sights.questions[easy] == FirstGrades(6, 0)
    assert unseen not in sights.questions
    priors = sights.priors({q: topics[q] for q in (hard, easy, unseen)})
    level = sights.prior(topics[unseen])
    assert priors[unseen] == level
    assert priors[hard] < level < priors[easy]
    # a new first grade counts at once, with no crowd refresh
    at = T0 + timedelta(days=1)
    await learning.grade(teammates[0], unseen, Grade.GOOD, at)
    again = await learning.first_sights(alice, at)
    assert again.questions[unseen] == FirstGrades(1, 0)


async def test_the_workspaces_first_sights_of_each_question_are_read_once_per_refresh(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read scans every grade (0.5 s at a year of a 50-member team): every `/quiz me`,
    member's page and practice choice made it until it was kept as the crowd's counts are."""
    questions = sorted(await bank(store))
    learning = LearningService(store.learning, dict)
    alice, bob = await member(store, "alice"), await member(store, "bob")
    await first_grades(learning, alice, questions[:3], Grade.GOOD)
    await first_grades(learning, bob, questions[:3], Grade.MISSED)
    reads = 0
    read = store.learning.question_first_grades

    async def counted(member_id: int) -> dict[int, FirstGrades]:
        nonlocal reads
        reads += 1
        return await read(member_id)

    monkeypatch.setattr(store.learning, "question_first_grades", counted)
    at = later()
    first = await learning.first_sights(alice, at)
    again = await learning.first_sights(bob, at + timedelta(minutes=1))
    assert reads == 1
    assert first.questions == again.questions == {q: FirstGrades(2, 1) for q in questions[:3]}
    await learning.first_sights(alice, at + CROWD_REFRESH)
    assert reads == 2
