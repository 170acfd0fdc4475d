"""Private practice on Discord, through the fake Discord: `/quiz practice` in a guild channel,
the question in the member's DM channel, each follow-up after the previous reply, the outline
with its key points and grade buttons, a private grade with "Next question", the next session;
a DM while no session waits gets the help text and `/quiz practice stop` ends a session."""

from __future__ import annotations

from typing import Any

from bot.kernel.refs import MemberRef
from tests.discord.conftest import button_payload, eventually
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    LEAD,
    Quiz,
    bot_posts,
    dm_button,
    dm_payload,
    quiz,
)

GRADE_ACTIONS = ["grade_missed", "grade_partly", "grade_good", "grade_nailed"]


def titles(quiz: Quiz, dm: int) -> list[str]:  # noqa: F811
    return [m["embeds"][0]["title"] for m in bot_posts(quiz.fake, dm)]


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message["components"] for c in row["components"]]


def the_dm(quiz: Quiz) -> int:  # noqa: F811
    [dm] = [c for c, json in quiz.fake.channels.items() if json["type"] == 1]
    return dm


async def say_in_dm(quiz: Quiz, dm: int, text: str) -> None:  # noqa: F811
    await quiz.run("MESSAGE_CREATE", dm_payload(quiz.fake, dm, ANN, text))
    await quiz.service.settle()  # the bot's DM messages go through the outbox


async def press_in_dm(quiz: Quiz, message: dict[str, Any], custom_id: str) -> str:  # noqa: F811
    """Press a button of a DM message; the private answer only the member sees."""
    replies = len(quiz.fake.interaction_replies)
    await quiz.run("INTERACTION_CREATE", dm_button(quiz.fake, ANN, message, custom_id))
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    await quiz.service.settle()
    return str(quiz.fake.interaction_replies[replies:])


async def start_practice(quiz: Quiz) -> int:  # noqa: F811
    await quiz.command(LEAD, "now")  # a quiz channel, as members would be in
    await quiz.command(ANN, "practice")
    assert "I sent you a question in your direct messages" in str(quiz.fake.interaction_replies)
    await quiz.service.settle()
    return the_dm(quiz)


async def ann_id(quiz: Quiz) -> int:  # noqa: F811
    return await quiz.store.members.member_id(
        MemberRef("discord", str(quiz.fake.guild_id), str(ANN))
    )


async def test_a_whole_practice_session_in_the_discord_dm(quiz: Quiz) -> None:  # noqa: F811
    dm = await start_practice(quiz)
    assert quiz.fake.channels[dm]["type"] == 1  # the member's DM channel, not the guild's
    assert all(m["embeds"][0]["title"] != "Practice question" for m in quiz.fake.channel_messages())
    [question] = bot_posts(quiz.fake, dm)
    assert question["embeds"][0]["title"] == "Practice question"
    session = await quiz.service.practice.current(await ann_id(quiz))
    assert session is not None
    asked = quiz.service.engine.question_for(session.direct, session.question_id)
    assert asked is not None and question["embeds"][0]["description"] == asked.question
    follow_ups = asked.follow_up_asks
    assert follow_ups, "the test needs a question with follow-ups"

    for number, follow_up in enumerate(follow_ups, start=1):  # each after the previous reply
        await say_in_dm(quiz, dm, f"my answer {number}")
        assert len(bot_posts(quiz.fake, dm)) == 1 + number
        latest = bot_posts(quiz.fake, dm)[-1]["embeds"][0]
        assert latest["title"] == f"Follow-up {number} of {len(follow_ups)}"
        assert latest["description"] == follow_up

    await say_in_dm(quiz, dm, "my last answer")
    outline = bot_posts(quiz.fake, dm)[-1]
    assert outline["embeds"][0]["title"] == "Sample answer outline"
    for point in asked.key_points:
        assert f"☐ {point}" in outline["embeds"][0]["description"]
    grades = [c["custom_id"] for c in buttons(outline)]
    assert [next(a for a in GRADE_ACTIONS if a in g) for g in grades] == GRADE_ACTIONS

    said = await press_in_dm(quiz, outline, grades[2])  # good
    assert "Practice graded" not in said  # shown once: the confirmation in the DM
    assert "'deleted': True" in said  # the placeholder of the deferred answer
    [(card_question, card)] = (await quiz.store.learning.member_cards(await ann_id(quiz))).items()
    assert card_question == session.question_id and card.due > quiz.clock.now()
    assert await quiz.store.reports.leaderboard(1, None) == []  # never the channel's leaderboard
    graded = bot_posts(quiz.fake, dm)[-1]
    assert graded["embeds"][0]["title"] == "Practice graded: good"
    assert sum("Practice graded" in str(m["embeds"]) for m in bot_posts(quiz.fake, dm)) == 1
    assert "comes back for you on" in graded["embeds"][0]["description"]
    [next_button] = buttons(graded)
    assert next_button["label"] == "Next question"

    posts = len(bot_posts(quiz.fake, dm))
    elsewhere = {**graded, "channel_id": str(quiz.fake.channel_id)}  # not in Ann's DM
    replies = len(quiz.fake.interaction_replies)
    stranger = button_payload(quiz.fake, BOB, elsewhere, next_button["custom_id"])
    await quiz.run("INTERACTION_CREATE", stranger)
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    assert "someone else's practice" in str(quiz.fake.interaction_replies[replies:])
    assert await quiz.service.practice.current(await ann_id(quiz)) is None

    said = await press_in_dm(quiz, graded, next_button["custom_id"])
    assert "I sent you a question in your direct messages" in said
    assert titles(quiz, dm)[posts:] == ["Practice question"]
    second = await quiz.service.practice.current(await ann_id(quiz))
    assert second is not None and second.id != session.id
    assert second.question_id != session.question_id  # the graded one is not due again yet


async def test_a_dm_while_no_session_waits_gets_the_help_text(quiz: Quiz) -> None:  # noqa: F811
    dm = await start_practice(quiz)
    await quiz.command(ANN, "practice", {"topic": "stop"})
    assert "Practice session ended" in str(quiz.fake.interaction_replies[-1])
    asked = len(bot_posts(quiz.fake, dm))

    await say_in_dm(quiz, dm, "my answer, too late")
    assert len(bot_posts(quiz.fake, dm)) == asked + 1  # no follow-up, only the help
    help_text = bot_posts(quiz.fake, dm)[-1]["embeds"][0]
    assert "only while a practice session waits" in str(help_text)
    assert await quiz.service.practice.current(await ann_id(quiz)) is None

    await quiz.command(ANN, "practice", {"topic": "stop"})
    assert "No practice session is open" in str(quiz.fake.interaction_replies[-1])


async def test_timed_practice_from_the_minutes_option_runs_out_in_the_dm(
    quiz: Quiz,  # noqa: F811
) -> None:
    await quiz.command(LEAD, "now")
    await quiz.command(ANN, "practice", {"minutes": "5"})  # the minutes alone: timed
    assert "You have 5 min to answer it" in str(quiz.fake.interaction_replies)
    await quiz.service.settle()
    dm = the_dm(quiz)
    [question] = bot_posts(quiz.fake, dm)
    fields = {f["name"]: f["value"] for f in question["embeds"][0]["fields"]}
    assert fields["Time"] == "5 min to answer"

    quiz.clock.advance(minutes=4)
    await quiz.service.settle()
    assert titles(quiz, dm) == ["Practice question", "1 minute left"]
    quiz.clock.advance(minutes=1)
    await quiz.service.settle()
    time_up = bot_posts(quiz.fake, dm)[-1]["embeds"][0]
    assert time_up["title"].startswith("Follow-up 1 of")
    assert time_up["description"].startswith("Time's up.")


async def test_a_bad_time_limit_on_discord_gets_the_form(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(ANN, "practice", {"timed": True, "minutes": "90"})
    said = str(quiz.fake.interaction_replies[-1])
    assert "whole minutes from 1 to 60" in said and "/quiz practice [timed MINUTES]" in said
    assert await quiz.service.practice.current(await ann_id(quiz)) is None


async def test_the_hint_button_in_the_discord_dm_shows_one_key_point(
    quiz: Quiz,  # noqa: F811
) -> None:
    dm = await start_practice(quiz)
    [question] = bot_posts(quiz.fake, dm)
    [hint] = [b for b in buttons(question) if b["label"] == "Hint"]
    await press_in_dm(quiz, question, hint["custom_id"])
    session = await quiz.service.practice.current(await ann_id(quiz))
    assert session is not None and session.hints == 1
    asked = quiz.service.engine.question_for(session.direct, session.question_id)
    assert asked is not None
    shown = bot_posts(quiz.fake, dm)[-1]["embeds"][0]
    assert shown["title"] == f"Hint 1 of {len(asked.key_points)}"
    assert shown["description"] == asked.key_points[0]
