"""Member text on the console is printed with its control characters escaped (``\\x1b``),
as ``quizbot packs flags`` prints it: an ANSI sequence in an answer, a name or a reason
must not colour, retitle or clear the terminal of whoever reads the transcript."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

RED = "\x1b[31mred\x1b[0m"
TITLE = "\x1b]0;owned\x07"  # sets the terminal's title
CLEAR = "\x1b[2J"

SCRIPT = [
    "/quiz now",
    f":as eve{TITLE}",
    f"my {RED} answer",
    f"/quiz flag the outline {CLEAR} is wrong",
    "/quiz leaderboard",
]


async def test_member_text_is_printed_with_control_characters_escaped(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "c.db", [platform], FakeClock(START), Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
    transcript = out.getvalue()
    assert "\x1b" not in transcript and "\x07" not in transcript
    assert "my \\x1b[31mred\\x1b[0m answer" in transcript  # the answer, echoed
    assert "you are now eve\\x1b]0;owned\\x07, a member" in transcript
    assert "1. eve\\x1b]0;owned\\x07 — 15 pts" in transcript  # a card naming the member
    assert "the outline \\x1b[2J is wrong" in transcript
