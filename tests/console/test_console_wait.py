"""A console script lets time pass with ``:wait``: with piped input nothing scheduled runs
by itself (its transcript must not depend on timing), and ``:wait 8d`` brings each day's
question, its outline an hour later, the last call before it, the daily reminders, the
Friday recap and each Monday's pairing, once each and in order, from one process."""

from __future__ import annotations

import io
import re
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.loader import load_catalog
from tests.conftest import START
from tests.console.script import run_script, script
from tests.console.test_console import run_console
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz schedule daily 09:00 UTC",
    "/quiz config reveal-after 1h",
    "/quiz config last-call 30m",
    ":as ann",
    "/quiz notify on",
    "/quiz pair on",
    ":as bob",
    "/quiz pair on",
    ":as you",
    "/quiz remind 12:00 UTC",
    "/quiz practice",
    ":dm",
    "my answer",
    "my follow-up answer",
    "/quiz grade missed",  # due again tomorrow: a reminder each day it stays due
    ":channel",
    ":wait 8d",  # Monday 08:00 to the next Tuesday 08:00
    "/quiz leaderboard",
]


async def test_wait_lets_each_days_work_happen_once_in_order(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "w.db", [platform], FakeClock(START), load_catalog()
    ) as service:
        await run_script(service, platform)
    lines = out.getvalue().splitlines()

    def at(text: str) -> list[int]:
        return [i for i, line in enumerate(lines) if text in line]

    questions = at("[#practice] quizbot: Question #")
    assert [re.sub(r".*Question #(\d+).*", r"\1", lines[i]) for i in questions] == [
        str(n) for n in range(1, 9)
    ]
    outlines = at("[#practice › Round")
    outlines = [i for i in outlines if "quizbot: Sample answer outline" in lines[i]]
    assert len(outlines) == 8
    last_calls = at("[DM › ann] quizbot: Last call for question #")
    assert len(last_calls) == 8
    for day, (question, last_call, outline) in enumerate(
        zip(questions, last_calls, outlines, strict=True)
    ):
        # each day: the question, the last call half an hour before its outline, the outline
        assert question < last_call < outline, day
        if day + 1 < len(questions):
            assert outline < questions[day + 1]
    assert lines[questions[0] - 1] == "  (Mon 30 Nov 2026 09:00 UTC)"
    assert last_calls[0] < lines.index("  (Mon 30 Nov 2026 10:00 UTC)") < outlines[0]
    reminders = at("[DM › you] quizbot: Time to review")
    assert len(reminders) == 7  # Tuesday to Monday at 12:00: once a day while it is due
    assert len(at("quizbot: Weekly recap")) == 1  # Friday 16:00
    assert len(at("quizbot: Mock interview of the week")) == 2  # Monday 30 Nov and 7 Dec
    assert len(at("quizbot: Your interviewer brief")) == 4
    assert "  (it is now Tue 08 Dec 2026 08:00 UTC)" in lines
    assert at("you: /quiz leaderboard")[0] > reminders[-1]  # the next line comes after


def test_quizbot_run_lets_a_script_wait_and_says_so_in_its_help(tmp_path: Path) -> None:
    script_text = "/quiz schedule daily 09:00 UTC\n:wait 2d\n:wait soon\n"
    result = run_console(script_text, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    posted = [line for line in result.stdout.splitlines() if "] quizbot: Question #" in line]
    assert [line.split("#")[-1] for line in posted] == ["1", "2"]  # two 09:00 slots in 2 days
    assert "(use :wait DURATION, e.g. :wait 2h, :wait 90m, :wait 1d12h (up to 366d))" in (
        result.stdout
    )
    help_text = " ".join(run_console("", tmp_path / "h.db", "--help").stdout.split())
    assert "nothing runs by itself while its lines are read" in help_text
    assert "':wait 2h' lets two hours pass" in help_text


async def test_at_a_terminal_time_passes_by_itself(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script([":wait 2h"]))
    async with running_service(
        tmp_path / "t.db", [platform], FakeClock(START), load_catalog()
    ) as service:
        platform.after_each_line(service.settle)  # no let_time_pass: as on a terminal
        await platform.start(service.handle)
        await platform.until_input_ends()
        await platform.stop()
        assert service.clock.now() == START
    assert ":wait is for scripts (piped input); here time passes by itself" in out.getvalue()
