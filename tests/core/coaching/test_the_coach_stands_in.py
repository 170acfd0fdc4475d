"""The coach standing in for a member who never grades, on both store backends and both
platforms: while the coach meets the stand-in rule, an answer with no grade of its author's
or their reviewers' when the coach's card is due gets the grade the verified ticks propose,
labelled as the coach's; below the rule nothing; the member's own grade replaces it, a
teammate's review outranks it; it adds no points, and export and erasure include it."""

from __future__ import annotations

import json

import pytest

from bot.coaching.cards import ACCEPT_ACTION
from bot.coaching.stand_in import CoachStandIn
from bot.kernel.grades import Grade
from bot.kernel.render import CardKind
from bot.rounds.cards import REVIEW_ACTION
from tests.core.coach.scripted_endpoint import MODEL, ScriptedEndpoint, ticks
from tests.core.coaching.coached import STRONG_TICKS, coach_cards
from tests.core.coaching.test_coach_in_the_loop import (
    answer_points,
    answered,
    coach_on,
    own_grade,
    press,
    reveal,
)
from tests.core.member_data.test_member_data import only_file, zip_entries
from tests.core.reviews.test_peer_reviews import press as review_press
from tests.core.reviews.test_peer_reviews import submit as review_submit
from tests.harness import QuizHarness

Judged = list[tuple[frozenset[int], frozenset[int]]]

# twenty answers on which the coach ticked what the reviewers ticked: the rule is met
AGREEING: Judged = [(frozenset({1, 2}), frozenset({1, 2}))] * 20
# as many, the coach finding half of what the reviewers ticked: recall 0.5, not met
MISSING_HALF: Judged = [(frozenset({1}), frozenset({1, 2}))] * 20


def measured_as(quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch, judged: Judged) -> None:
    """The channel's answers both judged, as the coach's store reads them (the measurement
    itself is tested against stored reviews in test_coach_in_the_loop)."""

    async def judged_by_both(channel_id: int) -> Judged:
        return judged

    monkeypatch.setattr(quiz.service.store.coach, "judged_by_both", judged_by_both)


async def sources(quiz: QuizHarness, name: str) -> list[tuple[int, str, bool]]:
    """The member's grades as exported: (rating, source, replaced), oldest first."""
    quiz.platform.files.clear()
    await quiz.command("export me", by=name)
    grades = json.loads(zip_entries(only_file(quiz, name))["quizbot-data.json"])["tables"]
    return [(g["rating"], g["source"], g["replaced_at"] is not None) for g in grades["grades"]]


async def stood_in(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    """Ann's first answer read (points 1 and 3 of 3) and the outline out, ungraded."""
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    await reveal(quiz)


async def test_with_the_rule_met_the_coachs_ticks_grade_a_member_who_gave_none(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    before = await answer_points(quiz)

    await reveal(quiz)

    assert await own_grade(quiz, "ann") is Grade.PARTLY  # 2 of 3 key points
    assert await sources(quiz, "ann") == [(Grade.PARTLY.value, "coach", False)]
    member = await quiz.service.store.members.member_id(quiz.member("ann"))
    assert len(await quiz.service.store.learning.member_cards(member)) == 1
    assert await answer_points(quiz) == before  # no quality points


async def test_below_the_rule_nothing_stands_in(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, MISSING_HALF)

    await stood_in(quiz, server)

    assert await own_grade(quiz, "ann") is None
    member = await quiz.service.store.members.member_id(quiz.member("ann"))
    assert await quiz.service.store.learning.member_cards(member) == {}


async def test_nothing_stands_in_on_fewer_than_twenty_answers_measured(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING[:19])

    await stood_in(quiz, server)

    assert await own_grade(quiz, "ann") is None


async def test_nothing_stands_in_once_the_coach_is_turned_off(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)  # read while the coach was on
    await quiz.command("config coach off")

    await reveal(quiz)

    assert await own_grade(quiz, "ann") is None
    # nor when a reading queued before comes due now (a delivery retried after the switch)
    round_ = await quiz.round()
    [answer] = await quiz.service.store.answers.round_answers(round_.id)
    stored = await quiz.service.store.coach.assessment(answer.id, MODEL)
    channel = await quiz.service.engine.channel(quiz.channel)
    assert stored is not None and channel is not None
    stand_in = CoachStandIn(quiz.service.store.coach, quiz.service.learning, quiz.clock)
    assert not await stand_in.card_due(stored, round_, channel)
    assert await own_grade(quiz, "ann") is None


async def test_the_members_own_grade_later_replaces_it(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await stood_in(quiz, server)

    graded = await quiz.command("grade nailed", by="ann")

    assert "replaces the coach's grade (partly), which stood in" in graded.card.body
    assert await own_grade(quiz, "ann") is Grade.NAILED
    assert await sources(quiz, "ann") == [
        (Grade.PARTLY.value, "coach", True),
        (Grade.NAILED.value, "self", False),
    ]


async def test_accepting_the_card_replaces_it_with_the_members_own(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await stood_in(quiz, server)
    [card] = coach_cards(quiz, "ann")

    await press(quiz, "ann", card, ACCEPT_ACTION)

    assert [s for _, s, replaced in await sources(quiz, "ann") if not replaced] == ["self"]


async def test_a_teammates_review_outranks_it_and_it_never_replaces_one(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await stood_in(quiz, server)
    round_ = await quiz.round()
    form = (await review_press(quiz, "bob", REVIEW_ACTION, f"r{round_.id}")).form
    assert form is not None
    sent = await review_submit(
        quiz, "bob", form, {"answer": "1", "score": "4", "covered": "1 2 3", "comment": ""}
    )
    assert sent.card.kind is not CardKind.ERROR, sent.card.body

    assert await own_grade(quiz, "ann") is Grade.NAILED  # the review's, over the coach's
    # the coach's card due again (a retried delivery) leaves the review's grade standing
    [answer] = await quiz.service.store.answers.round_answers(round_.id)
    stored = await quiz.service.store.coach.assessment(answer.id, MODEL)
    assert stored is not None
    stand_in = CoachStandIn(quiz.service.store.coach, quiz.service.learning, quiz.clock)
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    assert not await stand_in.card_due(stored, round_, channel)
    assert [s for _, s, replaced in await sources(quiz, "ann") if not replaced] == ["reviews"]


async def test_erasing_the_member_erases_it(
    quiz: QuizHarness, server: ScriptedEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured_as(quiz, monkeypatch, AGREEING)
    await stood_in(quiz, server)
    assert await own_grade(quiz, "ann") is Grade.PARTLY

    await quiz.command("forget me confirm", by="ann")

    round_ = await quiz.round()
    assert await quiz.service.store.learning.round_grades(round_.id) == {}
