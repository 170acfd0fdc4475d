"""What the bot sends: embeds, nonces, threads, reactions, errors, and finding a lost send."""

from __future__ import annotations

import pytest

from adapters.discord.inbound import channel_ref
from adapters.discord.nonce import marker_for_key, nonce_for_key
from bot.kernel.errors import ChannelUnavailable, PlatformError
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Button, Card, CardKind
from tests.discord.conftest import MemoryStore, PlatformFactory
from tests.discord.fake_discord import FakeDiscord
from tests.fakes import SimulatedCrash

MESSAGES = r"/channels/\d+/messages"


def quiz_channel(fake: FakeDiscord) -> ChannelRef:
    return channel_ref(fake.guild_id, fake.channel_id, "quiz")


def question_card(round_id: int = 42) -> Card:
    return Card(
        title="Round 1 · gpu",
        body="How would you size a GPU cluster?",
        footer="React 💡 to reveal",
        buttons=(Button("Reveal outline", "reveal", str(round_id)),),
        kind=CardKind.QUESTION,
    )


async def test_post_sends_an_embed_with_a_persistent_button_nonce_and_no_mentions(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()

    sent = await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    [message] = fake.channel_messages()
    assert sent == MessageRef(quiz_channel(fake), message["id"])
    [request] = fake.requests_to("POST", MESSAGES)
    assert request.body["nonce"] == str(nonce_for_key("round:42:question"))
    assert request.body["enforce_nonce"] is True
    assert request.body["allowed_mentions"] == {"parse": []}
    [embed] = message["embeds"]
    assert embed["title"] == "Round 1 · gpu"
    assert embed["footer"]["text"] == f"React 💡 to reveal · {marker_for_key('round:42:question')}"
    [row] = message["components"]
    assert row["components"][0]["custom_id"] == "quizbot:reveal:42"


async def test_a_retried_send_with_the_same_key_does_not_duplicate(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    first = await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    again = await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    assert again == first
    assert len(fake.channel_messages()) == 1
    assert len(fake.requests_to("POST", MESSAGES)) == 2


async def test_a_429_on_message_create_is_waited_out_and_sends_one_message(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    fake.rate_limit_next("POST", MESSAGES, retry_after=0.05)

    await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    assert len(fake.requests_to("POST", MESSAGES)) == 2
    assert len(fake.channel_messages()) == 1


async def test_a_long_429_becomes_a_platform_error_with_retry_after(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    fake.rate_limit_next("POST", MESSAGES, retry_after=120.0)

    with pytest.raises(PlatformError) as raised:
        await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    assert raised.value.retry_after == 120.0
    assert fake.channel_messages() == []


async def test_member_text_with_mentions_is_sent_inert(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    hostile = "@everyone @here <@123456789012345678> <@&987654321098765432>"
    card = Card(title=f"Top: {hostile}", body=hostile, footer=hostile)

    await platform.post(quiz_channel(fake), card, key="round:1:outline")

    [request] = fake.requests_to("POST", MESSAGES)
    assert request.body["allowed_mentions"] == {"parse": []}
    assert hostile in request.body["embeds"][0]["description"]


async def test_forbidden_and_unknown_channels_are_unavailable(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    fake.channels[fake.channel_id]["forbidden"] = True
    gone = channel_ref(fake.guild_id, 729999999999999999)

    with pytest.raises(ChannelUnavailable, match="403"):
        await platform.post(quiz_channel(fake), question_card(), key="round:1:question")
    with pytest.raises(ChannelUnavailable, match="404"):
        await platform.post(gone, question_card(), key="round:2:question")


async def test_thread_reply_and_reaction_on_the_question(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    question = await platform.post(quiz_channel(fake), question_card(), key="round:42:question")

    thread = await platform.open_thread(question, "Round 1 · gpu", key="round:42:thread")
    again = await platform.open_thread(question, "Round 1 · gpu", key="round:42:thread")
    reply = await platform.reply(
        thread, Card(title="Follow-ups", kind=CardKind.FOLLOW_UPS), key="round:42:follow_ups"
    )
    await platform.react(question, "💡")

    assert thread == ThreadRef(quiz_channel(fake), question.message_id) == again
    assert fake.channels[int(thread.thread_id)]["name"] == "Round 1 · gpu"
    [posted] = fake.channel_messages(int(thread.thread_id))
    assert reply.message_id == posted["id"]
    assert fake.reactions[(int(question.message_id), "💡")] == [fake.bot_id]


async def test_find_sent_finds_a_send_whose_result_was_lost_after_nonces_expired(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    channel = quiz_channel(fake)
    question = await platform.post(channel, question_card(), key="round:42:question")
    thread = await platform.open_thread(question, "Round 1", key="round:42:thread")
    outline = await platform.reply(thread, Card(title="Outline"), key="round:42:outline")
    fake.add_message(fake.channel_id, fake.bot_id, "unrelated")

    assert await platform.find_sent(channel, "round:42:question") == question
    found = await platform.find_sent(channel, "round:42:outline", thread=thread)
    assert found is not None and found.message_id == outline.message_id
    assert await platform.find_sent(channel, "round:42:outline") is None  # not in the channel
    assert await platform.find_sent(channel, "round:42:follow_ups", thread=thread) is None
    assert await platform.find_sent(channel, "round:43:question") is None


async def test_a_long_card_cut_short_is_resumed_once_not_marked_sent(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    channel = quiz_channel(fake)
    card = Card(title="Outline", body="\n\n".join("word " * 300 for _ in range(12)))
    # the first part is posted but its answer is lost; the send fails
    fake.fail_next("POST", MESSAGES, 500, after_effect=True)
    with pytest.raises(PlatformError):
        await platform.post(channel, card, key="round:8:outline")
    assert len(fake.channel_messages()) == 1
    assert await platform.find_sent(channel, "round:8:outline") is None  # not all of it

    first = await platform.post(channel, card, key="round:8:outline")  # the outbox's retry

    messages = fake.channel_messages()
    assert len(messages) >= 2
    assert messages[0]["id"] == first.message_id  # the first part was not posted twice
    assert len({m["id"] for m in messages}) == len(messages)
    assert await platform.find_sent(channel, "round:8:outline") == first


async def test_a_long_card_is_split_over_messages_without_losing_text(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    platform = await make_platform()
    paragraphs = [f"Paragraph {i}: " + "word " * 300 for i in range(12)]
    card = Card(title="Outline", body="\n\n".join(paragraphs), kind=CardKind.OUTLINE)

    first = await platform.post(quiz_channel(fake), card, key="round:7:outline")

    messages = fake.channel_messages()
    assert len(messages) >= 2
    assert messages[0]["id"] == first.message_id
    text = " ".join(e.get("description", "") for m in messages for e in m["embeds"])
    assert all(p.strip() in text for p in paragraphs)
    nonces = [r.body["nonce"] for r in fake.requests_to("POST", MESSAGES)]
    assert len(set(nonces)) == len(messages)


async def test_a_long_card_cut_short_by_a_crash_is_completed_by_the_next_process(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
    memory_store: MemoryStore,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    channel = quiz_channel(fake)
    card = Card(title="Outline", body="\n\n".join("word " * 300 for _ in range(12)))
    record_part = memory_store.unfinished_cards.record_card_part

    async def record_then_die(key: str, message_id: str) -> None:
        await record_part(key, message_id)
        monkeypatch.undo()
        raise SimulatedCrash("the process dies between two parts")

    monkeypatch.setattr(memory_store.unfinished_cards, "record_card_part", record_then_die)
    crashed = await make_platform()
    with pytest.raises(SimulatedCrash):
        await crashed.post(channel, card, key="round:9:outline")
    [first] = fake.channel_messages()
    fake.forget_nonces = True  # the restart comes after Discord forgot the nonces

    restarted = await make_platform()  # nothing in memory; the store is kept
    assert await restarted.find_sent(channel, "round:9:outline") is None  # not all of it
    again = await restarted.post(channel, card, key="round:9:outline")  # the outbox's retry

    messages = fake.channel_messages()
    assert again.message_id == first["id"] == messages[0]["id"]
    assert len(messages) >= 2
    assert len({m["id"] for m in messages}) == len(messages)  # no part was posted twice
    assert (
        await memory_store.unfinished_cards.unfinished_card("round:9:outline") is None
    )  # finished
