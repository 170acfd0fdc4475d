"""Workspace-level pacing of Slack posts (a fan-out at one slot stays under the limit).

The figures (429s and time against the floor for 200 channels) are in
bench/slack_fanout.py; these tests pin the rules with an injected clock.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from pydantic import ValidationError
from slack_sdk.http_retry import builtin_async_handlers

from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from adapters.slack.workspace_pacing import SLOWDOWN, WorkspacePacer, replica_share
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from tests.slack.fake_slack import TEAM, FakeSlack


class StepClock:
    """Time moves only when a waiter sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def _pacer(rate: float | None, clock: StepClock) -> WorkspacePacer:
    return WorkspacePacer(rate, monotonic=clock.monotonic, sleep=clock.sleep)


async def _starts(pacer: WorkspacePacer, clock: StepClock, posts: int) -> list[float]:
    starts: list[float] = []

    async def post() -> None:
        await pacer.turn()
        starts.append(round(clock.now, 6))

    await asyncio.gather(*(post() for _ in range(posts)))
    return starts


async def test_posts_of_the_workspace_start_evenly_spaced_in_arrival_order() -> None:
    clock = StepClock()
    starts = await _starts(_pacer(4.0, clock), clock, 5)
    assert starts == [100.0, 100.25, 100.5, 100.75, 101.0]


async def test_a_429_holds_every_post_for_its_retry_after_and_lowers_the_rate_once() -> None:
    clock = StepClock()
    pacer = _pacer(4.0, clock)
    await pacer.turn()
    pacer.hold(2.0)
    pacer.hold(2.0)  # other posts under way got their 429 too: no second slowdown
    assert pacer.rate == pytest.approx(4.0 * SLOWDOWN)
    starts = await _starts(pacer, clock, 2)
    assert starts[0] == pytest.approx(102.0)
    assert starts[1] - starts[0] == pytest.approx(1 / (4.0 * SLOWDOWN))


async def test_successes_bring_the_rate_back_to_the_configured_one_and_no_further() -> None:
    clock = StepClock()
    pacer = _pacer(4.0, clock)
    pacer.hold(1.0)
    for _ in range(1000):
        pacer.succeeded()
    assert pacer.rate == 4.0


async def test_without_a_rate_nothing_waits() -> None:
    clock = StepClock()
    pacer = _pacer(None, clock)
    assert await _starts(pacer, clock, 50) == [100.0] * 50
    pacer.hold(5.0)
    assert await _starts(pacer, clock, 1) == [100.0]


def test_a_rate_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        WorkspacePacer(0)


async def test_a_429_to_a_post_slows_the_whole_workspace(
    fake_slack: FakeSlack, slack_settings: SlackSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtin_async_handlers, "random", SimpleNamespace(random=lambda: 0.01))
    platform = create_slack_platform(
        slack_settings, http=True, port=0, post_interval=0, workspace_rate=50.0
    )
    fake_slack.rate_limited["chat.postMessage"] = 1  # a 429, then the SDK's retry works
    try:
        await platform.post(ChannelRef("slack", TEAM, "C1"), Card("t", "b"), key="k:1")
    finally:
        await platform.stop()
    assert fake_slack.count("chat.postMessage") == 2
    rate = platform.post_rate
    assert rate is not None and rate < 50.0 * SLOWDOWN + 0.1  # slowed, then one success


async def test_replicas_split_the_workspace_rate(slack_settings: SlackSettings) -> None:
    # Three processes posting to one workspace start no more posts than one would: the
    # workspace's limit is the workspace's, not each process's.
    settings = slack_settings.model_copy(update={"slack_replicas": 3})
    platform = create_slack_platform(settings, http=True, port=0, workspace_rate=9.0)
    try:
        assert platform.post_rate == pytest.approx(3.0)
    finally:
        await platform.stop()


async def test_one_replica_keeps_the_whole_rate(slack_settings: SlackSettings) -> None:
    platform = create_slack_platform(slack_settings, http=True, port=0, workspace_rate=9.0)
    try:
        assert platform.post_rate == pytest.approx(9.0)
    finally:
        await platform.stop()


def test_the_replica_count_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_REPLICAS", "4")
    assert SlackSettings(_env_file=None).slack_replicas == 4  # type: ignore[call-arg]


def test_a_replica_count_below_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_REPLICAS", "0")
    with pytest.raises(ValidationError, match="slack_replicas"):
        SlackSettings(_env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="at least 1"):
        replica_share(9.0, 0)
