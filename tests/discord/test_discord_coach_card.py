"""The coach's card on Discord, through the fake Discord: after the outline, a direct message
with the ticks and the Accept, Edit ticks and Dismiss buttons; Accept records the grade."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adapters.coach_transport import AiohttpChatTransport
from bot.kernel.config import QuizConfig
from bot.kernel.grades import Grade
from bot.service import QuizService
from storage.sqlite.store import SqliteStore
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, scripted_endpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coached_catalog, setup_for
from tests.discord.conftest import eventually, message_payload, reaction_payload
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord
from tests.discord.test_a_round_on_discord import (
    ANN,
    BOB,
    LEAD,
    Handled,
    Quiz,
    bot_posts,
    dm_button,
)
from tests.fakes import FakeClock


@pytest.fixture
async def coached(
    fake: FakeDiscord, tmp_path: Path
) -> AsyncIterator[tuple[Quiz, ScriptedEndpoint]]:
    fake.add_member(ANN, "ann")
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    fake.add_member(BOB, "bob")
    catalog = coached_catalog()
    clock = FakeClock(datetime(2025, 1, 6, 9, 0, tzinfo=UTC))
    async with (
        scripted_endpoint() as server,
        AiohttpChatTransport() as transport,
        SqliteStore.open(tmp_path / "quiz.db") as store,
    ):
        service = QuizService(
            store=store,
            platforms={},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(),
            rng=random.Random(7),
            background=False,
            coach=setup_for(server, transport),
        )
        await service.start()
        quiz = Quiz(fake, store, service, catalog, clock, Handled(service))
        await quiz.connect()
        try:
            yield quiz, server
        finally:
            await quiz.disconnect()
            await service.stop()


def buttons(message: dict[str, Any]) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for row in message["components"] for c in row["components"]}


async def test_the_card_comes_in_the_dm_after_the_outline_and_accept_grades(
    coached: tuple[Quiz, ScriptedEndpoint],
) -> None:
    quiz, server = coached
    fake = quiz.fake
    await quiz.command(LEAD, "config", {"setting": "coach", "value": "on"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    assert round_.thread is not None and round_.question_message is not None
    server.queue(ticks(*STRONG_TICKS))
    answer = fake.add_message(int(round_.thread), ANN, STRONG)
    await quiz.run("MESSAGE_CREATE", message_payload(fake, answer))
    await quiz.service.settle()
    assert len(server.requests) == 1
    assert not [c for c, json in fake.channels.items() if json["type"] == 1]  # no DM yet

    reveal = reaction_payload(fake, fake.channel_id, int(round_.question_message), BOB, "💡")
    await quiz.run("MESSAGE_REACTION_ADD", reveal)
    await quiz.service.settle()

    [dm] = [c for c, json in fake.channels.items() if json["type"] == 1]
    [card] = bot_posts(fake, dm)
    embed = card["embeds"][0]
    assert embed["title"].startswith("The coach read your answer")
    assert "Inside one server NVLink" in str(embed)
    ids = buttons(card)
    assert set(ids) == {"Accept", "Edit ticks", "Dismiss"}

    replies = len(fake.interaction_replies)
    await quiz.run("INTERACTION_CREATE", dm_button(fake, ANN, card, ids["Accept"]))
    await eventually(lambda: len(fake.interaction_replies) >= replies + 2)
    await quiz.service.settle()

    grades = await quiz.store.learning.round_grades(round_.id)
    assert list(grades.values()) == [Grade.PARTLY]  # 2 of 3 key points
    assert "Recorded" in str(fake.interaction_replies[replies:])
