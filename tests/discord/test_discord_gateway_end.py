"""A gateway that ends for good fails /healthz and ends the process with its cause."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from adapters.discord.settings import DiscordSettings
from adapters.ops import runtime
from adapters.ops.health import health_problems
from adapters.platforms import PlatformChoice
from bot.kernel.errors import PlatformError
from bot.settings import Settings
from tests.discord.conftest import TOKEN, MemoryStore, PlatformFactory, eventually
from tests.discord.fake_discord import FakeDiscord


@pytest.mark.parametrize(
    ("code", "cause"),
    [
        (4004, "the Discord token was rejected"),
        (4014, "enable the Message Content intent"),
    ],
)
async def test_a_refusal_at_identify_is_one_line_with_its_cause_and_no_traceback(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    caplog: pytest.LogCaptureFixture,
    code: int,
    cause: str,
) -> None:
    fake.close_on_identify = code

    with caplog.at_level(logging.DEBUG), pytest.raises(PlatformError, match=cause) as raised:
        await make_platform()

    assert "\n" not in str(raised.value)
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


async def test_a_live_session_closed_for_good_fails_healthz_and_reports_why(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    memory_store: MemoryStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    platform = await make_platform()
    assert await health_problems(memory_store.meta, [platform]) == []

    with caplog.at_level(logging.DEBUG):
        await fake.close_sessions(4004)
        cause = await asyncio.wait_for(platform.until_ended(), 5)

    assert "the Discord token was rejected" in cause
    assert await health_problems(memory_store.meta, [platform]) == ["discord: not connected"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [cause]
    assert [r for r in caplog.records if r.exc_info] == []


async def test_quizbot_run_exits_with_the_cause_when_the_gateway_ends_for_good(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        platform="discord",
        db_path=tmp_path / "quiz.db",
    )
    discord = DiscordSettings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=SecretStr(TOKEN),
        discord_api_url=fake.base_url,
    )
    running = asyncio.create_task(
        runtime.run_bot(
            settings,
            stdin=io.StringIO(""),
            stdout=io.StringIO(),
            platforms=PlatformChoice.of(discord),
        )
    )
    await eventually(lambda: fake.identified == 1 and not running.done())

    await fake.close_sessions(4004)

    with pytest.raises(PlatformError, match="the Discord token was rejected"):
        await asyncio.wait_for(running, 10)
