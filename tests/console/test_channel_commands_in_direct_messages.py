"""Commands that act on a channel are refused in the console's direct messages (``:dm``):
`/quiz now` there posts nothing and makes no quiz channel of the DM; what works in a DM
(practice, me, goal, remind, help) still does."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service


async def run(tmp_path: Path, lines: list[str]) -> tuple[str, int]:
    """The transcript of ``lines`` (its words) and how many quiz channels exist afterwards."""
    out = io.StringIO()
    platform = ConsolePlatform(out, script(lines), echo=True)
    async with running_service(
        tmp_path / "dm.db", [platform], FakeClock(START), Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
        channels = len(await service.store.channels.list_channels())
    return " ".join(out.getvalue().split()), channels  # the console wraps long lines


async def test_quiz_now_in_the_dm_is_refused_and_posts_nothing(tmp_path: Path) -> None:
    transcript, channels = await run(tmp_path, [":dm", "/quiz now"])
    assert channels == 0
    assert "Question #1" not in transcript
    assert "only in a channel" in transcript
    assert "/quiz practice" in transcript  # it says what works in direct messages


async def test_channel_commands_in_the_dm_do_not_invite_an_admin_to_start_a_quiz(
    tmp_path: Path,
) -> None:
    lines = [":dm", "/quiz leaderboard", "/quiz grade", "/quiz stats", "/quiz schedule"]
    transcript, channels = await run(tmp_path, lines)
    assert channels == 0
    assert "An admin can start one" not in transcript
    assert transcript.count("only in a channel") == 3
    assert "No practice question is waiting for your grade here" in transcript


async def test_what_works_in_a_dm_still_works_there(tmp_path: Path) -> None:
    lines = [":dm", "/quiz me", "/quiz goal", "/quiz remind", "/quiz help", "/quiz packs"]
    transcript, channels = await run(tmp_path, lines)
    assert channels == 0
    assert "only in a channel" not in transcript
    assert "Mastery" in transcript or "your practice" in transcript
    assert "No reminder" in transcript
