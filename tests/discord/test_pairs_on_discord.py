"""Mock-interview pairs on Discord, through the fake Discord: bots cannot open group DMs,
so the pair meets in a private thread of the quiz channel with exactly its two members
added; each member's brief comes to their own DM; nobody is pinged."""

from __future__ import annotations

from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    LEAD,
    Quiz,
    bot_posts,
    quiz,
)


async def test_a_pair_meets_in_a_private_thread_and_each_gets_a_brief(
    quiz: Quiz,  # noqa: F811
) -> None:
    await quiz.command(LEAD, "pair", {"action": "schedule", "values": "mon 10:00"})
    for member in (ANN, BOB):
        await quiz.command(member, "pair", {"action": "on"})
    await quiz.command(LEAD, "pair", {"action": "now"})
    await quiz.service.settle()
    (thread,) = [c for c in quiz.fake.channels.values() if c["type"] == 12]
    assert thread["thread_metadata"]["invitable"] is False
    assert sorted(quiz.fake.thread_members[int(thread["id"])]) == sorted((ANN, BOB))
    (intro,) = bot_posts(quiz.fake, int(thread["id"]))
    assert intro["embeds"][0]["title"] == "Mock interview of the week"
    assert "30-minute" in intro["embeds"][0]["description"]
    assert intro.get("allowed_mentions", {}).get("parse", []) == []  # nobody is pinged
    dms = [c for c, json in quiz.fake.channels.items() if json["type"] == 1]
    titles = [m["embeds"][0]["title"] for dm in dms for m in bot_posts(quiz.fake, dm)]
    assert sorted(t for t in titles if t.startswith("Your interviewer brief")) == [
        "Your interviewer brief: @everyone <@&1>",
        "Your interviewer brief: ann",
    ]
    # the same week again: no second thread
    await quiz.command(LEAD, "pair", {"action": "now"})
    await quiz.service.settle()
    assert len([c for c in quiz.fake.channels.values() if c["type"] == 12]) == 1


async def test_a_pairing_retried_after_its_thread_was_opened_opens_no_second_one(
    quiz: Quiz,  # noqa: F811
) -> None:
    await quiz.command(LEAD, "pair", {"action": "schedule", "values": "mon 10:00"})
    for member in (ANN, BOB):
        await quiz.command(member, "pair", {"action": "on"})
    # the thread is opened, then adding its first member is refused: the step is retried
    quiz.fake.fail_next(
        "PUT",
        r"/channels/\d+/thread-members/\d+",
        403,
        {"code": 50001, "message": "Missing Access"},
    )
    await quiz.command(LEAD, "pair", {"action": "now"})
    await quiz.service.settle()
    assert len([c for c in quiz.fake.channels.values() if c["type"] == 12]) == 1
    quiz.clock.advance(minutes=10)
    await quiz.service.settle()
    (thread,) = [c for c in quiz.fake.channels.values() if c["type"] == 12]
    assert sorted(set(quiz.fake.thread_members[int(thread["id"])])) == sorted((ANN, BOB))
    (intro,) = bot_posts(quiz.fake, int(thread["id"]))
    assert intro["embeds"][0]["title"] == "Mock interview of the week"
