"""`/quiz dashboard` on Discord, through the fake Discord: the link comes in an ephemeral
answer (the member's page being what Discord members otherwise lack), never in the channel."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore
from tests.core.dashboard.team import SECRET, dashboard_config, link_in, page_and_query
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord
from tests.discord.test_a_round_on_discord import ANN, EPHEMERAL, LEAD, Handled, Quiz
from tests.fakes import FakeClock


@pytest.fixture
async def quiz(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Quiz]:
    fake.add_member(ANN, "ann")
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    catalog = load_catalog()
    clock = FakeClock(datetime(2025, 1, 6, 9, 0, tzinfo=UTC))
    async with SqliteStore.open(tmp_path / "quiz.db") as store:
        service = QuizService(
            store=store,
            platforms={},
            catalog=catalog,
            clock=clock,
            config=dashboard_config(),
            rng=random.Random(7),
            background=False,
        )
        await service.start()
        quiz = Quiz(fake, store, service, catalog, clock, Handled(service))
        await quiz.connect()
        try:
            yield quiz
        finally:
            await quiz.disconnect()
            await service.stop()


def last_reply(quiz: Quiz) -> dict[str, object]:
    reply = quiz.fake.interaction_replies[-1]
    return dict(reply.get("data", reply))  # a deferred answer's edit, or the answer itself


async def test_the_links_come_ephemeral_on_discord(quiz: Quiz) -> None:
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    before = len(quiz.fake.channel_messages())

    await quiz.command(LEAD, "dashboard")
    lead = quiz.fake.interaction_replies[-1]
    await quiz.command(ANN, "dashboard", {"what": "me"})
    mine = quiz.fake.interaction_replies[-1]

    for reply in (lead, mine):
        assert int(str(reply.get("flags", 0))) & EPHEMERAL or any(
            int(str(r.get("data", {}).get("flags", 0))) & EPHEMERAL
            for r in quiz.fake.interaction_replies
            if isinstance(r.get("data"), dict)
        )
    lead_link, my_link = link_in(str(lead)), link_in(str(mine))
    assert "/dashboard/lead?" in lead_link and "p=discord" in lead_link
    assert f"m={ANN}" in my_link and SECRET not in str(quiz.fake.interaction_replies)
    assert len(quiz.fake.channel_messages()) == before  # nothing posted in the channel
    page, query = page_and_query(my_link)
    shown = await quiz.service.core.dashboard.render(page, query)
    assert shown.status == 200 and "your quiz in" in shown.html


async def test_share_on_and_off_on_discord(quiz: Quiz) -> None:
    await quiz.command(LEAD, "now")
    await quiz.command(ANN, "dashboard", {"what": "share", "state": "on"})
    assert "now shows your recall" in str(quiz.fake.interaction_replies[-1])
    await quiz.command(ANN, "dashboard", {"what": "share"})
    assert "shown by name" in str(quiz.fake.interaction_replies[-1])
    await quiz.command(ANN, "dashboard", {"what": "share", "state": "off"})
    assert "aggregates" in str(quiz.fake.interaction_replies[-1])
