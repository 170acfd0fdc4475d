"""Fitted parameters on both backends: the pooled review log of a workspace, every fit
stored kept or not, the newest kept fit in use; a fit after an erasure leaves the erased
member's reviews out; a fit in the background never holds up a reply."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.grades import Grade
from bot.kernel.refs import MemberRef
from bot.learning.parameter_fit import DEFAULTS, MIN_REVIEWS, FitOutcome, Item
from bot.learning.parameter_fitting import ParameterFitting
from bot.learning.parameter_store import FitRecord
from bot.learning.service import LearningService
from bot.member_data.service import MemberDataService
from bot.store import Store
from questions.catalog import QuestionKey
from tests.core.learning.test_parameter_fit import FORGETFUL
from tests.storage.backends import BACKENDS, open_store

T0 = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)


class FixedClock:
    def __init__(self, now: datetime) -> None:
        self.moment = now

    def now(self) -> datetime:
        return self.moment


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def team_log(
    store: Store, members: int, questions: int = 40, workspace: str = "team"
) -> tuple[LearningService, list[int]]:
    """Each member grades each question five times, a few days apart (missed every third)."""
    keys = [QuestionKey("p", f"q{n}", "gpu", f"h{n}") for n in range(questions)]
    ids = sorted((await store.rounds.sync_questions(keys)).values())
    learning = LearningService(store.learning, dict)
    people = []
    for n in range(members):
        who = await store.members.member_id(MemberRef("fake", workspace, f"m{n}", f"M{n}"))
        people.append(who)
        for q, question in enumerate(ids):
            for k in range(5):
                grade = Grade.MISSED if (n + q + k) % 3 == 0 else Grade.GOOD
                at = T0 + timedelta(days=3 * k + q % 7, minutes=n)
                await learning.grade(who, question, grade, at)
    return learning, people


def answering(parameters: Sequence[float]) -> object:
    def optimize(items: Sequence[Item]) -> Sequence[float]:
        return parameters

    return optimize


def outcome(kept: bool, loss: float = 0.5) -> FitOutcome:
    return FitOutcome(500, 120, 0.6, loss, FORGETFUL if kept else DEFAULTS, kept)


async def test_every_fit_is_stored_and_the_newest_kept_one_is_in_use(store: Store) -> None:
    fits = store.fitted_parameters
    assert await fits.in_use("fake", "team") is None
    kept = FitRecord("fake", "team", T0, "weekly", outcome(True))
    await fits.record_fit(kept)
    rejected = FitRecord("fake", "team", T0 + timedelta(days=7), "weekly", outcome(False, 0.7))
    await fits.record_fit(rejected)
    failed = FitRecord(
        "fake",
        "team",
        T0 + timedelta(days=8),
        "erasure",
        FitOutcome(450, 110, 0.6, None, None, False, "RuntimeError: diverged"),
    )
    await fits.record_fit(failed)
    await fits.record_fit(FitRecord("fake", "other", T0, "weekly", outcome(True, 0.4)))
    assert await fits.in_use("fake", "team") == kept
    assert await fits.fits("fake", "team") == [failed, rejected, kept]
    assert await fits.fits("fake", "team", limit=1) == [failed]


async def test_the_pooled_log_is_the_workspaces_current_grades(store: Store) -> None:
    _, people = await team_log(store, members=2, questions=3)
    await team_log(store, members=1, questions=3, workspace="elsewhere")
    reviews = await store.fitted_parameters.pooled_reviews("fake", "team")
    assert len(reviews) == 2 * 3 * 5
    assert {r.card[0] for r in reviews} == set(people)
    assert [r.at for r in reviews] == sorted(r.at for r in reviews)
    assert {r.rating for r in reviews} == {1, 3}
    assert await store.fitted_parameters.workspaces_with_grades() == [
        ("fake", "elsewhere"),
        ("fake", "team"),
    ]


async def test_a_fit_is_kept_by_the_rule_and_stored_with_its_figures(store: Store) -> None:
    await team_log(store, members=3)  # 3 * 40 * 4 = 480 reviews with a forecast
    fitting = ParameterFitting(store.fitted_parameters, FixedClock(T0), answering(FORGETFUL))  # type: ignore[arg-type]
    record = await fitting.fit_workspace("fake", "team", "weekly")
    assert record is not None
    assert record.outcome.reviews + record.outcome.held_out >= MIN_REVIEWS
    assert await store.fitted_parameters.fits("fake", "team") == [record]
    in_use = await fitting.in_use("fake", "team")
    if record.outcome.kept:
        assert in_use.parameters == FORGETFUL and in_use.since == T0
    else:
        assert in_use.parameters == DEFAULTS and in_use.since is None


async def test_a_team_below_the_threshold_gets_no_fit(store: Store) -> None:
    await team_log(store, members=1)  # 160 reviews with a forecast
    fitting = ParameterFitting(store.fitted_parameters, FixedClock(T0), answering(FORGETFUL))  # type: ignore[arg-type]
    assert await fitting.fit_all("weekly") == []
    assert await store.fitted_parameters.fits("fake", "team") == []
    assert (await fitting.in_use("fake", "team")).since is None


async def test_an_erasure_fits_again_without_the_erased_members_reviews(store: Store) -> None:
    _, people = await team_log(store, members=4)
    seen: list[int] = []

    def optimize(items: Sequence[Item]) -> Sequence[float]:
        seen.append(len(items))
        return DEFAULTS

    fitting = ParameterFitting(store.fitted_parameters, FixedClock(T0), optimize)
    before = await fitting.fit_workspace("fake", "team", "weekly")
    started: list[asyncio.Task[object]] = []
    data = MemberDataService(
        store.member_data,
        store.learning,
        lambda *_: None,
        lambda _: None,
        after_erasure=lambda member: started.append(
            fitting.fit_in_background(member.platform, member.workspace, "erasure")
        ),
    )
    await data.erase(MemberRef("fake", "team", "m0", "M0"), T0 + timedelta(days=60))
    [task] = started
    after = await task
    assert isinstance(after, FitRecord) and before is not None
    assert after.reason == "erasure"
    assert after.outcome.reviews + after.outcome.held_out == 3 * 40 * 4
    assert before.outcome.reviews + before.outcome.held_out == 4 * 40 * 4
    reviews = await store.fitted_parameters.pooled_reviews("fake", "team")
    assert people[0] not in {r.card[0] for r in reviews}


async def test_a_fit_in_the_background_never_holds_up_a_reply(store: Store) -> None:
    learning, people = await team_log(store, members=3)
    release = threading.Event()
    fitting_started = asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow(items: Sequence[Item]) -> Sequence[float]:
        loop.call_soon_threadsafe(fitting_started.set)  # in the fit's worker thread
        assert release.wait(timeout=30), "the test never released the fit"
        return DEFAULTS

    fitting = ParameterFitting(store.fitted_parameters, FixedClock(T0), slow)
    task = fitting.fit_in_background("fake", "team", "weekly")
    # the fit reads the log on the loop, then fits in a worker thread
    await asyncio.wait_for(fitting_started.wait(), timeout=30)
    # the loop answers meanwhile: a member's mastery and a grade, while the fit still runs
    at = T0 + timedelta(days=50)
    mastery = await asyncio.wait_for(learning.mastery(people[0], at), timeout=10)
    assert mastery.due == 40  # every question of theirs is due by then
    await asyncio.wait_for(learning.grade(people[1], 1, Grade.GOOD, at), timeout=10)
    assert not task.done()
    release.set()
    record = await asyncio.wait_for(task, timeout=30)
    assert isinstance(record, FitRecord)
