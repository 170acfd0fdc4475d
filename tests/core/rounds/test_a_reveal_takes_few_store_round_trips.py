"""A reveal reaction's way to the platform, counted in round trips to SQLite's thread.

Each round trip hands a call to aiosqlite's thread and wakes the event loop with its
result; on a busy machine every hand-off may wait for a CPU, and that, not the SQL,
made the reveal's p99 (``bench/reveal.py``). The reaction's effect, its event id and
the outbox's first steps are one transaction, and the worker performs the actions the
reveal queued without reading them back, so a reveal costs three round trips: the
reveal, the follow-ups' attempt, and the outline's attempt with the follow-ups done.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.events import Reaction
from bot.kernel.metrics import NoMetrics
from bot.kernel.models import FollowUpPolicy
from bot.kernel.refs import MessageRef
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service
from tests.round_trips import RoundTripCounter

REVEAL_ROUND_TRIPS = 3


class RoundTrips(RoundTripCounter):
    """Round trips to SQLite's thread until the platform is handed the outline."""

    def __init__(self, platform: FakePlatform) -> None:
        super().__init__()
        self.at_outline: int | None = None
        real_reply = platform.reply

        async def reply(*args: Any, key: str) -> Any:
            if key.endswith(":outline") and self.at_outline is None:
                self.at_outline = self.calls
            return await real_reply(*args, key=key)

        platform.reply = reply  # type: ignore[method-assign, assignment]


def _reveal_reaction(quiz: QuizHarness, message: str, event_id: str) -> Reaction:
    return Reaction(
        event_id, quiz.channel, MessageRef(quiz.channel, message), quiz.member("ann"), "💡"
    )


async def _reveal_counted(
    quiz: QuizHarness, message: str, monkeypatch: pytest.MonkeyPatch
) -> RoundTrips:
    trips = RoundTrips(quiz.platform)
    with trips.counting(monkeypatch):
        await quiz.service.handle(_reveal_reaction(quiz, message, "ev-reveal"))
        await quiz.service.settle()
    return trips


@pytest.fixture
def config() -> QuizConfig:
    # The follow-ups wait for the reveal, so the reveal sends two messages.
    return QuizConfig(default_schedule=None, followup_policy=FollowUpPolicy.WITH_REVEAL)


async def test_a_reveal_reaction_reaches_the_platform_in_three_round_trips(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    assert round_.question_message is not None

    trips = await _reveal_counted(quiz, round_.question_message, monkeypatch)

    assert trips.at_outline is not None, "the outline was never posted"
    assert trips.at_outline <= REVEAL_ROUND_TRIPS, (
        f"{trips.at_outline} store round trips from the reaction to the outline"
    )
    titles = await quiz.thread_titles()
    assert titles.index("Follow-up questions") < titles.index("Sample answer outline")


async def test_after_a_restart_the_channel_is_known_without_a_round_trip(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        await QuizHarness(service, platform, clock).command("now")
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        quiz = QuizHarness(service, platform, clock)
        stored = await service.store.channels.get_channel(quiz.channel)  # not through the engine
        assert stored is not None
        round_ = await service.store.rounds.latest_round(stored.id)
        assert round_ is not None and round_.question_message is not None

        trips = await _reveal_counted(quiz, round_.question_message, monkeypatch)

        assert trips.at_outline is not None, "the outline was never posted"
        assert trips.at_outline <= REVEAL_ROUND_TRIPS, (
            f"{trips.at_outline} store round trips from the reaction to the outline"
        )


class CountedDuplicates(NoMetrics):
    def __init__(self) -> None:
        self.duplicates: list[str] = []

    def duplicate_event(self, platform: str) -> None:
        self.duplicates.append(platform)


async def test_redelivered_reveal_and_vote_reactions_count_as_duplicates_and_change_nothing(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> None:
    metrics = CountedDuplicates()
    async with running_service(
        db_path, [platform], clock, catalog, config, metrics=lambda _: metrics
    ) as service:
        quiz = QuizHarness(service, platform, clock)
        await quiz.command("now")
        answer = await quiz.answer("bob", "an answer")
        round_ = await quiz.round()
        assert round_.question_message is not None
        reveal = _reveal_reaction(quiz, round_.question_message, "ev-reveal")
        vote = Reaction(
            "ev-vote", quiz.channel, MessageRef(quiz.channel, answer), quiz.member("carol"), "👍"
        )

        for event in (reveal, vote, reveal, vote):  # the second of each: a redelivery
            await service.handle(event)
        await service.settle()

        assert (await quiz.thread_titles()).count("Sample answer outline") == 1
        [scored] = await service.store.answers.round_answers(round_.id)
        assert scored.votes == 1
        assert metrics.duplicates == ["fake", "fake"]


async def test_a_reveal_handed_over_while_a_pass_runs_is_sent_once(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    assert round_.question_message is not None
    store = quiz.service.store
    real_due_actions = store.outbox.due_actions
    reaction = _reveal_reaction(quiz, round_.question_message, "ev-reveal")

    async def reveal_meanwhile(*args: Any, **kwargs: Any) -> Any:
        # The reveal lands while this pass holds the worker, before it reads the due
        # index: the pass performs the reveal's actions, and the handed copy finds them done.
        monkeypatch.setattr(store.outbox, "due_actions", real_due_actions)
        await quiz.service.handle(reaction)
        return await real_due_actions(*args, **kwargs)

    monkeypatch.setattr(store.outbox, "due_actions", reveal_meanwhile)
    await quiz.service.settle()

    titles = await quiz.thread_titles()
    assert titles.count("Follow-up questions") == 1
    assert titles.count("Sample answer outline") == 1
    assert titles.index("Follow-up questions") < titles.index("Sample answer outline")
