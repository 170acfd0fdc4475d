"""A quiz whose operator set an answer coach: the service with a ``CoachSetup`` whose client
talks, through the real aiohttp transport, to a scripted endpoint; a question bank whose
key points an answer can explain; and what a test reads back (the cards in a member's
direct messages)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.budget import CoachBudget
from bot.coach.client import CoachClient
from bot.coaching.setup import CoachSetup
from bot.kernel.config import QuizConfig
from bot.kernel.metrics import Metrics
from bot.kernel.render import Card
from bot.service import QuizService
from bot.store import Store
from questions.catalog import Catalog
from questions.pack import Pack
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, endpoint_at
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import open_store

KEY_POINTS = [
    "a ring all-reduce sends each chunk around twice",
    "bus bandwidth divides by the 2(N-1)/N factor",
    "NVLink carries the traffic inside a node",
]
STRONG = (
    "A ring all-reduce passes every chunk around the ring twice, once reducing and once"
    " gathering. Inside one server NVLink links the GPUs directly at very high speed."
)
# the quotes an honest model gives for STRONG: points 1 and 3
STRONG_TICKS = (
    (
        1,
        "A ring all-reduce passes every chunk around the ring twice, once reducing and once"
        " gathering",
    ),
    (3, "Inside one server NVLink links the GPUs directly at very high speed"),
)


def coached_catalog() -> Catalog:
    questions = [
        {
            "id": f"allreduce-{n}",
            "topic": "networking",
            "question": f"How does all-reduce scale across GPUs? (take {n})",
            "outline": "Ring all-reduce, bus bandwidth, NVLink.",
            "follow_ups": ["What changes with a tree all-reduce?"],
            "key_points": KEY_POINTS,
        }
        for n in range(1, 4)
    ]
    pack = {"id": "coached", "title": "Coached", "questions": questions}
    return Catalog([Pack.model_validate(pack)])


def setup_for(
    endpoint: ScriptedEndpoint,
    transport: AiohttpChatTransport,
    *,
    budget: CoachBudget | None = None,
    request_timeout: float = 5.0,
) -> CoachSetup:
    point = endpoint_at(endpoint.base_url, request_timeout=request_timeout)
    return CoachSetup(point, CoachClient(point, transport), budget or CoachBudget())


@asynccontextmanager
async def service_on(
    store: Store,
    platform: FakePlatform,
    clock: FakeClock,
    setup: CoachSetup | None,
    *,
    metrics: Metrics | None = None,
) -> AsyncIterator[QuizHarness]:
    """A started quiz on ``store`` with the coach ``setup``."""
    service = QuizService(
        store=store,
        platforms={platform.name: platform},
        catalog=coached_catalog(),
        clock=clock,
        config=QuizConfig(default_schedule=None),
        rng=random.Random(7),
        background=False,
        metrics=metrics,
        coach=setup,
    )
    await service.start()
    try:
        yield QuizHarness(service, platform, clock)
    finally:
        await service.stop()


@asynccontextmanager
async def coached_quiz(
    backend: str,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    setup: CoachSetup | None,
    *,
    metrics: Metrics | None = None,
) -> AsyncIterator[QuizHarness]:
    """A started quiz on ``backend`` with the coach ``setup`` (None: the operator set none)."""
    async with (
        open_store(backend, tmp_path) as store,
        service_on(store, platform, clock, setup, metrics=metrics) as harness,
    ):
        yield harness


def direct_cards(quiz: QuizHarness, name: str) -> list[Card]:
    """What the bot posted in ``name``'s direct messages, oldest first."""
    return [m.card for m in quiz.platform.messages if m.channel.channel_id == f"D-{name}"]


def coach_cards(quiz: QuizHarness, name: str) -> list[Card]:
    return [c for c in direct_cards(quiz, name) if c.title.startswith("The coach")]
