"""`/quiz config` on Discord: with no options a member sees every setting privately, with a
setting alone that one; only an admin changes one."""

from __future__ import annotations

from typing import Any

from bot.channels.config_settings import CHANNEL_SETTINGS
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    EPHEMERAL,
    LEAD,
    Quiz,
    quiz,
)


def last_private_embed(quiz: Quiz) -> dict[str, Any]:  # noqa: F811
    reply = quiz.fake.interaction_replies[-1]
    body = reply.get("data", reply)
    assert body["flags"] & EPHEMERAL
    embed: dict[str, Any] = body["embeds"][0]
    return embed


async def test_a_member_sees_every_setting_or_one(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "reveal-reactors", "value": "2"})

    await quiz.command(ANN, "config")
    every = {f["name"]: f["value"] for f in last_private_embed(quiz)["fields"]}
    await quiz.command(ANN, "config", {"setting": "reveal-reactors"})
    one = {f["name"]: f["value"] for f in last_private_embed(quiz)["fields"]}

    assert list(every) == [s.name for s in CHANNEL_SETTINGS]
    assert every["reveal-reactors"].startswith("2 ")
    assert "`/quiz config grace HOURS`" in every["grace"]
    assert one == {"reveal-reactors": every["reveal-reactors"]}


async def test_a_member_cannot_change_a_setting(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "now")
    await quiz.command(ANN, "config", {"setting": "grace", "value": "1"})

    [channel] = await quiz.store.channels.list_channels()
    assert channel.grace_hours == 6
