"""Seasons on the console: ``:wait`` past midnight on the first of the month posts the
past season's champions in the channel once, and `/quiz season` shows the archive."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz schedule daily 09:00 UTC",
    "/quiz now",
    ":as ann",
    "shard the KV cache by head",
    ":as you",
    ":wait 2d",  # Monday 30 November 08:00 to Wednesday 2 December: the turn at midnight
    "/quiz season 2026-11",
]


async def test_the_turn_posts_the_champions_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    clock = FakeClock(START)  # Mon 30 Nov 2026 08:00 UTC
    async with running_service(
        tmp_path / "s.db", [platform], clock, Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
    lines = out.getvalue().splitlines()
    posts = [i for i, line in enumerate(lines) if "quizbot: 🏆 Season 2026-11" in line]
    assert len(posts) == 1, out.getvalue()
    [at] = posts
    assert lines[at].startswith("[#practice] ")  # in the channel, not a thread
    post = "\n".join(lines[at : at + 6])
    assert "Most points: ann: 15 points" in post
    assert lines[at - 1].strip() == "(Tue 01 Dec 2026 00:00 UTC)"  # at the turn
    shown = out.getvalue().split("/quiz season 2026-11", 1)[1]
    assert "01 Nov 2026 to 30 Nov 2026 (over)" in shown
    assert "Past champions: 2026-11: most points ann" in shown
