"""Discord sends a reaction in the skin tone the member picked (👍🏽): it is their vote, and
a toned reveal emoji reveals; the vote emoji and two emoji are refused as the reveal emoji."""

from __future__ import annotations

from tests.discord.conftest import message_payload, reaction_payload
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    LEAD,
    Quiz,
    quiz,
)
from tests.discord.test_discord_blind_answers import last_private_text


async def test_a_toned_thumbs_up_votes_and_a_toned_hand_reveals(quiz: Quiz) -> None:  # noqa: F811
    fake = quiz.fake
    await quiz.command(LEAD, "config", {"setting": "reveal-emoji", "value": "✋"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    assert round_.thread is not None and round_.question_message is not None
    thread_id = int(round_.thread)
    answer = fake.add_message(thread_id, ANN, "Shard the batch")
    await quiz.run("MESSAGE_CREATE", message_payload(fake, answer))

    vote = reaction_payload(fake, thread_id, int(answer["id"]), LEAD, "👍🏽")
    await quiz.run("MESSAGE_REACTION_ADD", vote)
    reveal = reaction_payload(fake, fake.channel_id, int(round_.question_message), BOB, "✋🏿")
    await quiz.run("MESSAGE_REACTION_ADD", reveal)
    await quiz.service.settle()

    [answer_record] = await quiz.store.answers.round_answers(round_.id)
    assert answer_record.votes == 1
    assert (await quiz.round()).revealed_at is not None


async def test_the_vote_emoji_and_two_emoji_are_refused_as_the_reveal_emoji(quiz: Quiz) -> None:  # noqa: F811
    for typed, reason in [
        ("👍🏽", "is the vote emoji"),
        ("👍", "is the vote emoji"),
        ("💡💡", "more than one emoji"),
        ("✋👍", "more than one emoji"),
    ]:
        await quiz.command(LEAD, "config", {"setting": "reveal-emoji", "value": typed})
        assert reason in last_private_text(quiz), typed
    [channel] = await quiz.store.channels.list_channels()
    assert channel.reveal_emoji == "💡"  # unchanged
