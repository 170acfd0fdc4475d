"""Two admins change different settings of one channel at the same moment, each through
another replica: both changes are kept. The race is made to happen: replica b's whole
change runs right after replica a read the channel's settings for its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import two_replicas

CHANGES = [
    pytest.param(
        "config reveal-after 2h",
        "config last-call 30m",
        {"reveal_after_minutes": 120, "last_call_minutes": 30},
        id="reveal-after and last-call",
    ),
    pytest.param(
        "pause", "config ping quiz-team", {"paused": True, "ping": "quiz-team"}, id="pause and ping"
    ),
    pytest.param(
        "config last-call 1h",
        "pause",
        {"last_call_minutes": 60, "paused": True},
        id="last-call and pause",
    ),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("on_a", "on_b", "kept"), CHANGES)
async def test_settings_changed_on_two_replicas_at_once_are_all_kept(
    backend: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    on_a: str,
    on_b: str,
    kept: dict[str, object],
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        await pair.a.command("resume")  # an admin's first command: the channel's quiz
        channels = pair.a.service.store.channels
        read = channels.get_channel
        b_changes: list[Callable[[], Awaitable[object]]] = [lambda: pair.b.command(on_b)]

        async def read_then_b_changes(ref: ChannelRef) -> ChannelSettings | None:
            settings = await read(ref)
            while b_changes:
                await b_changes.pop()()
            return settings

        monkeypatch.setattr(channels, "get_channel", read_then_b_changes)
        await pair.a.command(on_a)
        assert not b_changes, "b's change ran while a's was under way"

        for quiz in (pair.a, pair.b):
            stored = await quiz.service.store.channels.get_channel(quiz.channel)
            assert stored is not None
            assert {name: getattr(stored, name) for name in kept} == kept
