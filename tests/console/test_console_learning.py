"""The learning loop on the console, end to end and in-process with an injected clock:
`/quiz now`, an answer, `:react 💡`, `/quiz grade partly`, `/quiz me`."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from questions.pack import Pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # a Monday
SCRIPT = ["/quiz now", ":as alice", "My answer", ":react 💡", "/quiz grade partly", "/quiz me"]
PACK = Pack.model_validate(
    {
        "id": "loop",
        "title": "Loop pack",
        "questions": [
            {
                "id": "kv-cache",
                "topic": "inference",
                "question": "Why does the KV cache grow with context length?",
                "outline": "One key and one value vector per token per layer.",
                "key_points": ["per token", "per layer", "memory-bound decode"],
            }
        ],
    }
)


async def test_the_whole_learning_loop_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    clock = FakeClock(START)
    async with running_service(tmp_path / "q.db", [platform], clock, Catalog([PACK])) as service:
        await run_script(service, platform)
    transcript = out.getvalue().splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(transcript) if text in line)

    outline = at("quizbot: Sample answer outline")
    assert at("Did you cover…") > outline
    assert "☐ memory-bound decode" in transcript[at("Did you cover…") + 3]
    grade = at("alice: /quiz grade partly")
    assert outline < grade
    assert transcript[grade + 1].endswith("quizbot → alice (private): Question #1 graded: partly")
    # partly (a lapse to FSRS, Again) on a first review: stability 0.21 days, back next day
    assert "comes back for you on Tue 01 Dec 2026" in transcript[grade + 2]
    me = [line.strip() for line in transcript[at("alice: /quiz me") + 1 :]]
    assert me[0].endswith("(private): alice in this channel")
    assert "Points: 15" in me  # grades never change points
    # partly (Again) on a first review: the recall FSRS expects 30 days ahead
    assert "Mastery per topic (expected recall on Wed 30 Dec 2026): inference 47%" in me
    assert "Due for review: 0" in me
    assert "Next review: Tue 01 Dec 2026" in me
