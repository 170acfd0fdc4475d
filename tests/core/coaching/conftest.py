"""The coached quiz's fixtures: a scripted endpoint, the transport to it, and the quiz on
each store backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.coach_transport import AiohttpChatTransport
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, scripted_endpoint
from tests.core.coaching.coached import coached_quiz, setup_for
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS


@pytest.fixture
async def server() -> AsyncIterator[ScriptedEndpoint]:
    async with scripted_endpoint() as endpoint:
        yield endpoint


@pytest.fixture
async def transport() -> AsyncIterator[AiohttpChatTransport]:
    async with AiohttpChatTransport() as opened:
        yield opened


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def quiz(
    backend: str,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    server: ScriptedEndpoint,
    transport: AiohttpChatTransport,
) -> AsyncIterator[QuizHarness]:
    """A quiz with the coach configured (not yet turned on in the channel)."""
    async with coached_quiz(
        backend, tmp_path, platform, clock, setup_for(server, transport)
    ) as harness:
        yield harness
