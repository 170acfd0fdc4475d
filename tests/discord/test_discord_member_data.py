"""A member's own data on Discord, through the fake Discord: `/quiz export me` and
`/quiz export anki` arrive as files in the member's DM with the bot, `/quiz forget me
confirm` erases them, and `/quiz me` stays the personal page."""

from __future__ import annotations

import io
import json
import zipfile

from bot.kernel.refs import MemberRef
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    bot_posts,
    quiz,
)


async def answered(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    member = MemberRef("discord", str(quiz.fake.guild_id), str(ANN), "ann")
    member_id = await quiz.store.members.member_id(member)
    from bot.kernel.grades import Grade

    await quiz.service.learning.grade(member_id, round_.question_id, Grade.MISSED, quiz.clock.now())


def dm_files(quiz: Quiz) -> list[tuple[str, bytes]]:  # noqa: F811
    dms = [c for c, channel in quiz.fake.channels.items() if channel["type"] == 1]
    contents = {u.filename: u.content for u in quiz.fake.uploads}
    return [
        (a["filename"], contents[a["filename"]])
        for dm in dms
        for message in bot_posts(quiz.fake, dm)
        for a in message["attachments"]
    ]


async def test_exports_are_files_in_the_members_dm(quiz: Quiz) -> None:  # noqa: F811
    await answered(quiz)

    await quiz.command(ANN, "export", {"what": "me"})
    await quiz.command(ANN, "export", {"what": "anki"})

    files = dm_files(quiz)
    assert [name.rsplit(".", 1)[1] for name, _ in files] == ["zip", "apkg"]
    with zipfile.ZipFile(io.BytesIO(files[0][1])) as archive:
        tables = json.loads(archive.read("quizbot-data.json"))["tables"]
    assert len(tables["grades"]) == 1 and len(tables["member_cards"]) == 1
    assert "in your direct messages with me" in str(quiz.fake.interaction_replies)
    assert all(m["attachments"] == [] for m in quiz.fake.channel_messages())  # none in public


async def test_forget_me_confirm_erases_the_member_on_discord(quiz: Quiz) -> None:  # noqa: F811
    await answered(quiz)

    await quiz.command(ANN, "forget", {"whom": "me"})
    assert "forget me confirm" in str(quiz.fake.interaction_replies[-1])
    await quiz.command(ANN, "forget", {"whom": "me", "confirm": True})

    assert "Your quiz data is erased" in str(quiz.fake.interaction_replies[-1])
    member = MemberRef("discord", str(quiz.fake.guild_id), str(ANN))
    member_id = await quiz.store.member_data.find_member(member)
    assert member_id is not None
    assert await quiz.store.learning.member_cards(member_id) == {}
    await quiz.command(ANN, "me")
    assert "in this channel" in str(quiz.fake.interaction_replies[-1])  # /quiz me stays
