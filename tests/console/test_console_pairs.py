"""`/quiz pair` and `/quiz hint` on the console: two members opt in, an admin pairs them now,
the pair's intro shows in their shared DM view and each member's brief in their own DM view;
in private practice, each `/quiz hint` shows the next key point."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START
from tests.console.script import run_script, script
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz pair schedule mon 10:00",
    ":as ann",
    "/quiz pair on",
    ":as bob",
    "/quiz pair on",
    "/quiz pair now",  # refused: bob is no admin
    ":as you admin",
    "/quiz pair now",
]


async def test_a_pair_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    catalog: Catalog = catalog_with_key_points()
    async with running_service(tmp_path / "p.db", [platform], FakeClock(START), catalog) as service:
        await run_script(service, platform)
        await service.settle()
    transcript = out.getvalue().splitlines()
    assert "[DM › ann, bob] quizbot: Mock interview of the week" in transcript
    refused = transcript[transcript.index("[#practice] bob: /quiz pair now") + 1 :][:3]
    assert "admin" in " ".join(refused).lower()
    briefs = sorted(line for line in transcript if "Your interviewer brief" in line)
    assert briefs == [
        "[DM › ann] quizbot: Your interviewer brief: bob",
        "[DM › bob] quizbot: Your interviewer brief: ann",
    ]


async def test_a_hint_in_practice_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = ["/quiz practice", ":dm", "/quiz hint", "/quiz hint"]
    platform = ConsolePlatform(out, script(lines), echo=True)
    catalog = catalog_with_key_points()
    async with running_service(tmp_path / "h.db", [platform], FakeClock(START), catalog) as service:
        await run_script(service, platform)
    transcript = out.getvalue().splitlines()
    shown = [line for line in transcript if "quizbot: Hint" in line]
    assert shown == ["[DM › you] quizbot: Hint 1 of 5", "[DM › you] quizbot: Hint 2 of 5"]
