"""The coach's tests run against a scripted endpoint through the real aiohttp transport."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.client import CoachClient
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, endpoint_at, scripted_endpoint


@pytest.fixture
async def server() -> AsyncIterator[ScriptedEndpoint]:
    async with scripted_endpoint() as endpoint:
        yield endpoint


@pytest.fixture
async def transport() -> AsyncIterator[AiohttpChatTransport]:
    async with AiohttpChatTransport() as opened:
        yield opened


@pytest.fixture
def client(server: ScriptedEndpoint, transport: AiohttpChatTransport) -> CoachClient:
    """A client of the scripted endpoint, with an API key."""
    return CoachClient(endpoint_at(server.base_url), transport)
