"""A `/quiz` slash command run in the bot's DM (no guild): a command that acts on a channel is
refused with where to run it, and nothing is posted or made of the DM; practice still starts."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import command_payload, eventually
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    bot_posts,
    quiz,
)


def in_dm(quiz: Quiz, user: int, name: str) -> tuple[dict[str, Any], int]:  # noqa: F811
    """``/quiz NAME`` as Discord delivers it from ``user``'s DM with the bot, and that DM."""
    dm = int(quiz.fake._direct_channel(user)["id"])
    payload = command_payload(quiz.fake, user, name, channel_id=dm)
    member = payload.pop("member")
    del payload["guild_id"]
    payload["user"] = member["user"]
    payload["context"] = 1  # the bot's DM
    return payload, dm


async def run_in_dm(quiz: Quiz, user: int, name: str) -> tuple[str, int]:  # noqa: F811
    replies = len(quiz.fake.interaction_replies)
    payload, dm = in_dm(quiz, user, name)
    await quiz.run("INTERACTION_CREATE", payload)
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    await quiz.service.settle()
    return str(quiz.fake.interaction_replies[replies:]), dm


async def test_quiz_now_in_a_dm_is_refused(quiz: Quiz) -> None:  # noqa: F811
    said, dm = await run_in_dm(quiz, LEAD, "now")
    assert "only in a channel" in said and "/quiz practice" in said
    assert bot_posts(quiz.fake, dm) == []
    assert await quiz.store.channels.list_channels() == []


async def test_leaderboard_in_a_dm_does_not_invite_starting_a_quiz(quiz: Quiz) -> None:  # noqa: F811
    said, _ = await run_in_dm(quiz, ANN, "leaderboard")
    assert "An admin can start one" not in said
    assert "only in a channel" in said


async def test_practice_from_a_dm_still_starts(quiz: Quiz) -> None:  # noqa: F811
    said, dm = await run_in_dm(quiz, ANN, "practice")
    assert "only in a channel" not in said
    assert bot_posts(quiz.fake, dm)[0]["embeds"][0]["title"] == "Practice question"


async def test_help_in_a_dm_lists_only_what_works_there(quiz: Quiz) -> None:  # noqa: F811
    said, _ = await run_in_dm(quiz, ANN, "help")
    assert "/quiz practice" in said and "/quiz remind" in said
    assert "/quiz now" not in said and "/quiz leaderboard" not in said and "Admins" not in said
