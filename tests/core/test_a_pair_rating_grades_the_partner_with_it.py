"""A mock-interview rating and the grade it gives the partner are recorded together, on
both backends: a process killed as the grade is recorded, before or after, leaves both
or neither (and the member's retry records them), never a rating whose grade is lost and
whose retry is refused as "rated already"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.kernel.grades import Grade
from questions.catalog import Catalog
from tests.core.test_a_kill_after_a_record_loses_no_message import killed_after, killed_before
from tests.core.test_pairing import briefs, member_id, opted_in
from tests.core.test_peer_reviews import catalog_with_key_points
from tests.fakes import SimulatedCrash
from tests.harness import QuizHarness


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def rated_pair(quiz: QuizHarness) -> tuple[int, int]:
    """ann and bob paired this week, ann interviewing bob: (ann's id, bob's)."""
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair now")
    assert briefs(quiz.platform)["ann"].card.title.endswith("Bob")
    return await member_id(quiz, "ann"), await member_id(quiz, "bob")


@pytest.mark.parametrize("kill", [killed_before, killed_after])
async def test_a_pair_rating_and_the_partners_grade_are_recorded_together(
    quiz: QuizHarness,
    monkeypatch: pytest.MonkeyPatch,
    kill: Callable[[pytest.MonkeyPatch, object, str], None],
) -> None:
    ann, bob = await rated_pair(quiz)
    kill(monkeypatch, quiz.service.store.learning, "record_grade")
    with pytest.raises(SimulatedCrash):
        await quiz.command("pair rate 3", by="ann")

    await quiz.command("pair rate 3", by="ann")  # the member tries again

    log = await quiz.service.store.learning.grade_log(bob)
    assert [grade for _, grade, _, _ in log] == [Grade.GOOD]
    assert (await quiz.service.store.pairs.pair_counts(ann)).given == 1
