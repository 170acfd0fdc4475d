"""The operator's answer coach from the settings: its endpoint (None when unset), and the
running bot's :class:`~bot.coaching.setup.CoachSetup` with its HTTP transport open."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pydantic import ValidationError

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.budget import CoachBudget
from bot.coach.client import CoachClient
from bot.coach.endpoint import CoachEndpoint
from bot.coaching.setup import CoachSetup
from bot.settings import Settings, SettingsError


def coach_endpoint(settings: Settings) -> CoachEndpoint | None:
    """The endpoint ``QUIZBOT_COACH_URL`` and ``QUIZBOT_COACH_MODEL`` name; None when neither
    is set. One without the other, or a URL that is not one, is refused, saying which (never
    with the key)."""
    url, model = settings.coach_url, settings.coach_model
    if not url and not model:
        return None
    if not url or not model:
        missing = "QUIZBOT_COACH_URL" if not url else "QUIZBOT_COACH_MODEL"
        raise SettingsError(f"the coach needs {missing} too (or neither, for no coach)")
    try:
        return CoachEndpoint(
            base_url=url,
            model=model,
            api_key=settings.coach_api_key,
            deadline=settings.coach_deadline_seconds,
        )
    except ValidationError as problem:
        reasons = "; ".join(str(error["msg"]) for error in problem.errors())
        raise SettingsError(f"QUIZBOT_COACH_URL / QUIZBOT_COACH_MODEL: {reasons}") from None


@asynccontextmanager
async def coach_setup(settings: Settings) -> AsyncIterator[CoachSetup | None]:
    """The coach as the bot runs it, its transport open for the block; None without one."""
    endpoint = coach_endpoint(settings)
    if endpoint is None:
        yield None
        return
    budget = CoachBudget(
        daily_tokens=settings.coach_daily_tokens,
        daily_requests_per_member=settings.coach_daily_requests_per_member,
    )
    async with AiohttpChatTransport() as transport:
        yield CoachSetup(endpoint, CoachClient(endpoint, transport), budget)
