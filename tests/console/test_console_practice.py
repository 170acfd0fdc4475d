"""The console example of private practice, as a transcript: `/quiz practice`, `:dm`, the
answers, `/quiz grade good`, `:channel`, `/quiz me`."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from adapters.console.connector import ConsolePlatform, LineSource
from questions.catalog import Catalog
from questions.loader import load_catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz practice net",  # an unknown topic is refused
    "/quiz practice networking",
    ":dm",
    "my answer",
    "my follow-up answer",
    "/quiz grade good",
    "one more line",
    ":channel",
    "/quiz me",
]


async def test_the_practice_example_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "p.db", [platform], FakeClock(START), Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
    transcript = out.getvalue().splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(transcript) if text in line)

    assert "Unknown topic" in transcript[at("you: /quiz practice net") + 2]
    started = at("you: /quiz practice networking")
    assert transcript[started + 1] == "[#practice] quizbot → you (private): Practice started"
    assert "[DM › you] quizbot: Practice question" in transcript[started + 2 :][:5]
    # no goal set: the first practice says, once, that one would aim practice at it
    hint = " ".join(line.strip() for line in transcript[started + 2 :][:4])
    assert "`/quiz goal YYYY-MM-DD` makes practice aim at that day" in hint
    assert at("[DM › you] you: my answer") < at("[DM › you] quizbot: Follow-up 1 of 1")
    assert at("[DM › you] you: my follow-up answer") < at("[DM › you] quizbot: Sample answer")
    grade = at("[DM › you] you: /quiz grade good")
    # once: the confirmation with the date and the "Next question" button, in the DM
    assert [line for line in transcript if "Practice graded" in line] == [
        "[DM › you] quizbot: Practice graded: good"
    ]
    assert at("[DM › you] quizbot: Practice graded: good") > grade
    assert "only while a practice session waits" in " ".join(transcript[grade:])
    me = [line.strip() for line in transcript[at("[#practice] you: /quiz me") + 1 :]]
    assert me[0].endswith("(private): you: your practice")
    # good on a first review: the recall FSRS expects 30 days ahead
    assert "Mastery per topic (expected recall on Wed 30 Dec 2026): networking 67%" in me


async def test_the_issue_example_with_the_bundled_packs(tmp_path: Path) -> None:
    """`/quiz practice`, `:dm`, two answers, `/quiz grade good`, `:channel`, `/quiz me`."""
    lines = [
        "/quiz practice",
        ":dm",
        "my answer",
        "my follow-up answer",
        "/quiz grade good",
        ":channel",
        "/quiz me",
    ]

    out = io.StringIO()
    platform = ConsolePlatform(out, script(lines), echo=True)
    async with running_service(
        tmp_path / "p.db", [platform], FakeClock(START), load_catalog()
    ) as service:
        await run_script(service, platform)
    transcript = out.getvalue()
    assert transcript.count("Practice graded") == 1
    assert "[DM › you] quizbot: Practice graded: good" in transcript
    assert "Grade first" not in transcript  # the script's answers fit the question's steps
    me = transcript[transcript.index("[#practice] you: /quiz me") :]
    assert "Mastery per topic (expected recall on" in me and "Due for review: 0" in me


async def test_timed_practice_on_the_console_runs_out_as_time_passes(tmp_path: Path) -> None:
    clock = FakeClock(START)
    lines = ["/quiz practice timed 5 networking", ":dm", "+4", "+1", "my late answer"]
    out = io.StringIO()

    def source() -> LineSource:
        async def read(prompt: Callable[[], str]) -> AsyncIterator[str]:
            for line in lines:
                if line.startswith("+"):  # minutes pass, as a user waits at the prompt
                    clock.advance(minutes=int(line[1:]))
                    await service.settle()
                    continue
                yield line

        return read

    platform = ConsolePlatform(out, source(), echo=True)
    async with running_service(
        tmp_path / "p.db", [platform], clock, Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
    transcript = out.getvalue()
    assert "You have 5 min to answer it, from now." in transcript
    assert "Time: 5 min to answer" in transcript
    warning = transcript.index("quizbot: 1 minute left")
    time_up = transcript.index("Time's up.")
    late = transcript.index("you: my late answer")
    assert warning < time_up < late
    assert "Follow-up 1 of 1" in transcript[warning:time_up]
    assert "Sample answer outline" in transcript[late:]  # the late answer was the follow-up's
