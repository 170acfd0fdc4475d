"""The coach's practice card decided on the console, typed as its buttons: accept records the
grade its ticks propose as the member's practice grade, once; edit records the edited grade;
dismiss records none; a press after the outline's grade is refused."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.coach_transport import AiohttpChatTransport
from adapters.console.connector import ConsolePlatform
from tests.conftest import START
from tests.console.script import run_script, script
from tests.core.coach.scripted_endpoint import completion, scripted_endpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coached_catalog, setup_for
from tests.fakes import FakeClock
from tests.harness import running_service

ANSWERED = [
    "/quiz config coach on",
    "/quiz coach probe off",
    "/quiz practice",
    ":dm",
    STRONG,
    "A tree halves the latency.",
]


async def run(tmp_path: Path, then: list[str]) -> str:
    out = io.StringIO()
    platform = ConsolePlatform(out, script([*ANSWERED, *then]), echo=True)
    async with scripted_endpoint() as server, AiohttpChatTransport() as transport:
        server.queue(ticks(*STRONG_TICKS), completion("{}"))
        async with running_service(
            tmp_path / "q.db",
            [platform],
            FakeClock(START),
            coached_catalog(),
            coach=setup_for(server, transport),
        ) as service:
            await run_script(service, platform)
    return out.getvalue()


async def test_accept_records_the_proposed_grade_once(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz coach accept r1", "/quiz coach accept r1"])
    assert out.count("Practice graded: partly") == 1  # 2 of 3 key points ticked
    assert "graded already" in out.split("you: /quiz coach accept r1")[-1]


async def test_edit_records_the_edited_grade(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz coach edit r1 1 2 3", "/quiz coach dismiss r1"])
    assert out.count("Practice graded:") == 1 and "Practice graded: nailed" in out
    assert "graded already" in out.split("you: /quiz coach dismiss r1")[-1]


async def test_an_edit_needs_key_points_in_range(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz coach edit r1 4"])
    assert "numbers from 1 to 3" in out and "Practice graded:" not in out


async def test_dismiss_records_nothing_and_a_later_accept_is_refused(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz coach dismiss r1", "/quiz coach accept r1"])
    assert "Nothing of the coach's reading was recorded" in out
    assert "Practice graded:" not in out
    assert "graded already" in out.split("you: /quiz coach accept r1")[-1]


async def test_a_press_after_the_outlines_grade_is_refused(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz grade missed", "/quiz coach accept r1"])
    assert out.count("Practice graded:") == 1 and "Practice graded: missed" in out
    assert "graded already" in out.split("you: /quiz coach accept r1")[-1]


async def test_a_card_of_no_reading_is_refused(tmp_path: Path) -> None:
    out = await run(tmp_path, ["/quiz coach accept r2"])
    assert "gone" in out.split("you: /quiz coach accept r2")[-1]
    assert "Practice graded:" not in out
