"""A kept fit of the team's FSRS parameters is what its cards and forecasts run on, on both
backends: the stored cards are replayed under it in the background (a reply never waits),
later grades are built with it, a fit not kept changes nothing, another replica follows
within :data:`PARAMETER_REFRESH`, and after an erasure a refit's parameters are used."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.kernel.grades import Grade
from bot.kernel.refs import MemberRef
from bot.learning.memory_model import (
    DEFAULT_MODEL,
    LoggedGrade,
    MemoryCard,
    MemoryModel,
    to_fsrs,
)
from bot.learning.parameter_fit import DEFAULTS, FitOutcome, Item
from bot.learning.parameter_fitting import PARAMETER_REFRESH, ParameterFitting
from bot.learning.parameter_store import FitRecord
from bot.learning.practice_policy import PracticeRequest
from bot.learning.service import LearningService
from bot.learning.store import CardBuilder, LearningStore
from bot.member_data.service import MemberDataService
from bot.store import Store
from tests.core.learning.test_parameter_fit import FORGETFUL
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_fitted_parameters_store import T0, FixedClock, answering, team_log

# a fit that forecasts the team's log worse than the defaults: never kept
STRONG = (*[2 * w for w in DEFAULTS[:4]], *DEFAULTS[4:])
LATER = T0 + timedelta(days=60)
# a fit that forecasts the team's log better still than FORGETFUL
SHARPER = (0.04, 0.15, 0.4, 1.8, *FORGETFUL[4:])


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


def fitted_service(
    store: Store, parameters: Sequence[float], learning: LearningStore | None = None
) -> tuple[LearningService, ParameterFitting, FixedClock]:
    clock = FixedClock(LATER)
    fitting = ParameterFitting(store.fitted_parameters, clock, answering(parameters))  # type: ignore[arg-type]
    service = LearningService(learning or store.learning, dict, fitting=fitting)
    return service, fitting, clock


async def replayed(store: Store, model: MemoryModel, member_id: int) -> dict[int, MemoryCard]:
    """The member's cards as ``model`` replays their grade log."""
    logs: dict[int, list[LoggedGrade]] = {}
    for question_id, grade, at, replaced in await store.learning.grade_log(member_id):
        if not replaced:
            logs.setdefault(question_id, []).append(LoggedGrade(grade, at))
    cards = {q: model.member_card(q, log) for q, log in logs.items()}
    return {q: card for q, card in cards.items() if card is not None}


async def test_a_kept_fit_rebuilds_the_cards_and_runs_the_forecasts(store: Store) -> None:
    _, people = await team_log(store, members=3)
    under_defaults = await store.learning.member_cards(people[0])
    assert under_defaults == await replayed(store, DEFAULT_MODEL, people[0])
    learning, fitting, _ = fitted_service(store, FORGETFUL)
    record = await fitting.fit_workspace("fake", "team", "weekly")
    assert record is not None and record.outcome.kept
    await learning.rebuilds_done()
    fitted = MemoryModel(FORGETFUL)
    for member in people:
        assert await store.learning.member_cards(member) == await replayed(store, fitted, member)
    rebuilt = await store.learning.member_cards(people[0])
    assert rebuilt != under_defaults
    # the member's forecast is the fitted scheduler's, not the defaults'
    target = LATER + timedelta(days=30)
    topics = {q: "gpu" for q in rebuilt}
    service = LearningService(store.learning, lambda: topics, fitting=fitting)
    mastery = await service.member_mastery(people[0], LATER)
    fitted_forecast = [
        float(fitted.scheduler.get_card_retrievability(to_fsrs(c), target))
        for c in rebuilt.values()
    ]
    default_forecast = [DEFAULT_MODEL.recall(c, target) for c in under_defaults.values()]
    assert mastery["gpu"] == pytest.approx(sum(fitted_forecast) / len(rebuilt), abs=1e-12)
    assert mastery["gpu"] != pytest.approx(sum(default_forecast) / len(rebuilt), abs=1e-3)
    question = next(iter(rebuilt))
    # a later grade is built with the fitted parameters too
    result = await learning.grade(people[1], question, Grade.GOOD, LATER)
    assert result.card == (await replayed(store, fitted, people[1]))[question]
    assert result.card != (await replayed(store, DEFAULT_MODEL, people[1]))[question]


async def test_a_fit_not_kept_changes_nothing(store: Store) -> None:
    _, people = await team_log(store, members=3)
    before = {m: await store.learning.member_cards(m) for m in people}
    learning, fitting, _ = fitted_service(store, STRONG)
    record = await fitting.fit_workspace("fake", "team", "weekly")
    assert record is not None and not record.outcome.kept
    await learning.rebuilds_done()
    assert {m: await store.learning.member_cards(m) for m in people} == before
    assert await learning.workspace_model("fake", "team") is DEFAULT_MODEL
    describe = (await fitting.in_use("fake", "team")).describe()
    assert describe.startswith("FSRS defaults")


async def test_another_replica_follows_a_kept_fit_within_the_refresh(store: Store) -> None:
    await team_log(store, members=1, questions=3)
    learning, _, clock = fitted_service(store, FORGETFUL)
    assert await learning.workspace_model("fake", "team") is DEFAULT_MODEL
    kept = FitOutcome(480, 120, 0.61, 0.55, FORGETFUL, True)
    await store.fitted_parameters.record_fit(FitRecord("fake", "team", LATER, "weekly", kept))
    assert await learning.workspace_model("fake", "team") is DEFAULT_MODEL  # cached
    clock.moment = LATER + PARAMETER_REFRESH
    model = await learning.workspace_model("fake", "team")
    assert model.parameters == FORGETFUL
    assert await learning.workspace_model("fake", "elsewhere") is DEFAULT_MODEL


async def test_after_an_erasure_the_refits_parameters_are_used(store: Store) -> None:
    _, people = await team_log(store, members=4)
    answers = [FORGETFUL, SHARPER]
    asked: list[int] = []

    def optimize(items: Sequence[Item]) -> Sequence[float]:
        asked.append(len(items))
        return answers[len(asked) - 1]

    clock = FixedClock(LATER)
    fitting = ParameterFitting(store.fitted_parameters, clock, optimize)
    learning = LearningService(store.learning, dict, fitting=fitting)
    first = await fitting.fit_workspace("fake", "team", "weekly")
    assert first is not None and first.outcome.kept
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
    await data.erase(MemberRef("fake", "team", "m0", "M0"), LATER)
    [task] = started
    refit = await task
    assert isinstance(refit, FitRecord) and refit.reason == "erasure"
    await learning.rebuilds_done()
    model = await learning.workspace_model("fake", "team")
    # the refit beats the first fit on the log without the erased member's reviews
    assert refit.outcome.kept and asked[1] < asked[0]
    assert model.parameters == answers[1]
    for member in people[1:]:
        assert await store.learning.member_cards(member) == await replayed(store, model, member)


class HeldRebuild:
    """The store, with its first rebuild waiting to be released (later ones run through)."""

    def __init__(self, store: LearningStore) -> None:
        self._store = store
        self.started = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def rebuild_cards(
        self, platform: str, workspace: str, *, member_card: CardBuilder, channel_card: CardBuilder
    ) -> int:
        if not self.started.is_set():
            self.started.set()
            await self.release.wait()
        return await self._store.rebuild_cards(
            platform, workspace, member_card=member_card, channel_card=channel_card
        )


async def test_the_rebuild_never_holds_up_a_reply(store: Store) -> None:
    _, people = await team_log(store, members=3)
    held = HeldRebuild(store.learning)
    learning, fitting, _ = fitted_service(store, FORGETFUL, held)
    record = await asyncio.wait_for(fitting.fit_workspace("fake", "team", "weekly"), timeout=30)
    assert record is not None and record.outcome.kept
    await asyncio.wait_for(held.started.wait(), timeout=10)
    # the loop answers while the rebuild waits: a mastery and a grade
    mastery = await asyncio.wait_for(learning.mastery(people[0], LATER), timeout=10)
    assert mastery.due == 40
    graded = await asyncio.wait_for(learning.grade(people[1], 1, Grade.GOOD, LATER), timeout=10)
    assert graded.card.last_review == LATER
    held.release.set()
    await asyncio.wait_for(learning.rebuilds_done(), timeout=30)
    fitted = MemoryModel(FORGETFUL)
    assert await store.learning.member_cards(people[2]) == await replayed(store, fitted, people[2])


class Recording:
    """A practice policy that records what it is asked to choose with."""

    def __init__(self) -> None:
        self.requests: list[PracticeRequest] = []

    def choose(self, request: PracticeRequest) -> int | None:
        self.requests.append(request)
        return None


async def test_practice_is_chosen_with_the_members_workspace_model(store: Store) -> None:
    _, people = await team_log(store, members=1, questions=3)
    await team_log(store, members=1, questions=3, workspace="elsewhere")
    kept = FitOutcome(480, 120, 0.61, 0.55, FORGETFUL, True)
    await store.fitted_parameters.record_fit(FitRecord("fake", "team", LATER, "weekly", kept))
    policy = Recording()
    fitting = ParameterFitting(store.fitted_parameters, FixedClock(LATER), answering(FORGETFUL))  # type: ignore[arg-type]
    learning = LearningService(store.learning, dict, policy, fitting=fitting)
    elsewhere = await store.members.member_id(MemberRef("fake", "elsewhere", "m0", "M0"))
    await learning.choose_practice(people[0], LATER)
    await learning.choose_practice(elsewhere, LATER)
    assert [r.model.parameters for r in policy.requests] == [FORGETFUL, DEFAULTS]


async def test_a_rebuild_under_older_parameters_never_has_the_last_word(store: Store) -> None:
    _, people = await team_log(store, members=3)
    answers = iter([FORGETFUL, SHARPER])

    def optimize(items: Sequence[Item]) -> Sequence[float]:
        return next(answers)

    held = HeldRebuild(store.learning)
    fitting = ParameterFitting(store.fitted_parameters, FixedClock(LATER), optimize)
    learning = LearningService(held, dict, fitting=fitting)
    first = await fitting.fit_workspace("fake", "team", "weekly")
    await asyncio.wait_for(held.started.wait(), timeout=10)
    second = await fitting.fit_workspace("fake", "team", "weekly")
    assert first is not None and first.outcome.kept
    assert second is not None and second.outcome.kept
    held.release.set()  # the first rebuild finishes after the second fit was kept
    await asyncio.wait_for(learning.rebuilds_done(), timeout=30)
    sharper = MemoryModel(SHARPER)
    for member in people:
        assert await store.learning.member_cards(member) == await replayed(store, sharper, member)
