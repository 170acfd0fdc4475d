"""A coach that takes its time (a small model on a CPU takes tens of seconds) holds up no
post: its request is performed beside the outbox's passes, so the next question goes out
while the model is still reading, and the card follows when it answers. The endpoint here is
a transport that answers only when the test lets it: no sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.coach.client import CoachClient
from bot.coach.transport import HttpReply
from bot.coaching.setup import CoachSetup
from tests.core.coach.scripted_endpoint import endpoint_at, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coach_cards, coached_quiz
from tests.fakes import FakeClock, FakePlatform


class HeldTransport:
    """Answers each request with the ticks once :attr:`answer` is set."""

    def __init__(self) -> None:
        self.answer = asyncio.Event()
        self.reading = asyncio.Event()  # a request arrived
        self.asked = 0

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply:
        self.asked += 1
        self.reading.set()
        await self.answer.wait()
        return HttpReply(200, ticks(*STRONG_TICKS).body.encode())


async def test_the_next_question_goes_out_while_the_coach_is_still_reading(
    backend: str, tmp_path: Path, platform: FakePlatform, clock: FakeClock
) -> None:
    transport = HeldTransport()
    point = endpoint_at("http://127.0.0.1:9/v1")
    setup = CoachSetup(point, CoachClient(point, transport))
    async with coached_quiz(backend, tmp_path, platform, clock, setup) as quiz:
        await quiz.command("config coach on")
        await quiz.command("now")
        await quiz.answer("ann", STRONG, settle=False)
        await quiz.service.outbox.run_due()  # the reading starts, and waits on the model
        await asyncio.wait_for(transport.reading.wait(), timeout=10)

        await quiz.command("now", settle=False)
        await quiz.service.outbox.run_due()

        questions = [m for m in platform.in_channel() if m.key.endswith(":question")]
        assert len(questions) == 2  # posted while the model was still reading
        assert coach_cards(quiz, "ann") == []
        transport.answer.set()
        await quiz.service.settle()
        [card] = coach_cards(quiz, "ann")  # the first round was revealed as the next closed it
        assert "2 of 3 key points" in card.body
        assert transport.asked == 1
