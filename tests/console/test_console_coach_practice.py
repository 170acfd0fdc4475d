"""The coach in private practice on the console: its own follow-up after the pack's, then the
outline, then its card on the practice answer, before the member grades."""

from __future__ import annotations

import io
import json
from pathlib import Path

from adapters.coach_transport import AiohttpChatTransport
from adapters.console.connector import ConsolePlatform
from tests.conftest import START
from tests.console.script import run_script, script
from tests.core.coach.scripted_endpoint import completion, scripted_endpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coached_catalog, setup_for
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz config coach on",
    "/quiz practice",
    ":dm",
    STRONG,
    "A tree halves the latency.",
    "It stays flat as the ring grows.",
    "/quiz grade partly",
]


async def test_the_practice_card_follows_the_outline_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with scripted_endpoint() as server, AiohttpChatTransport() as transport:
        probe = "How does the ring's size change the bandwidth each GPU sees?"
        server.queue(ticks(*STRONG_TICKS), completion(json.dumps({"question": probe})))
        async with running_service(
            tmp_path / "q.db",
            [platform],
            FakeClock(START),
            coached_catalog(),
            coach=setup_for(server, transport),
        ) as service:
            await run_script(service, platform)
        assert len(server.requests) == 2
    lines = out.getvalue().splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    asked = at("[DM › you] quizbot: Coach's follow-up")
    assert at("[DM › you] quizbot: Follow-up 1 of 1") < asked
    assert "Coach's follow-up: How does the ring's size" in " ".join(lines[asked : asked + 3])
    assert asked < at("[DM › you] you: It stays flat") < at("quizbot: Sample answer outline")
    card = at("[DM › you] quizbot: The coach read your practice answer")
    assert at("[DM › you] quizbot: Sample answer outline") < card
    assert card < at("[DM › you] you: /quiz grade partly")
    assert "Inside one server NVLink" in "\n".join(lines[card : card + 10])
