"""The coach's card on the console: text, in the member's direct messages once the outline
is out, its buttons named as the typed commands that do the same (`/quiz coach accept N`)."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.coach_transport import AiohttpChatTransport
from adapters.console.connector import ConsolePlatform
from bot.kernel.grades import Grade
from tests.conftest import START
from tests.console.script import run_script, script
from tests.core.coach.scripted_endpoint import scripted_endpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coached_catalog, setup_for
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz config coach on",
    "/quiz now",
    ":as alice",
    STRONG,
    ":react 💡",
    "/quiz coach accept 1",
]


async def test_the_card_and_its_typed_buttons_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with scripted_endpoint() as server, AiohttpChatTransport() as transport:
        server.queue(ticks(*STRONG_TICKS))
        async with running_service(
            tmp_path / "q.db",
            [platform],
            FakeClock(START),
            coached_catalog(),
            coach=setup_for(server, transport),
        ) as service:
            await run_script(service, platform)
            [channel] = await service.store.channels.list_channels()
            round_ = await service.store.rounds.latest_round(channel.id)
            assert round_ is not None
            grades = await service.store.learning.round_grades(round_.id)
    transcript = out.getvalue()
    lines = transcript.splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    card = at("quizbot: The coach read your answer to question #1")
    assert at("quizbot: Sample answer outline") < card < at("alice: /quiz coach accept 1")
    shown = "\n".join(lines[card : card + 12])
    assert "Inside one server NVLink" in shown
    assert "`/quiz coach accept 1`" in " ".join(shown.split())
    assert "The answer coach is on in this channel" in transcript
    assert list(grades.values()) == [Grade.PARTLY]
