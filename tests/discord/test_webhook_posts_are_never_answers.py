"""A webhook's post in a quiz thread (an integration, a CI bot) is not a member's answer:
not when it arrives, not when a resumed gateway session replays it, not when the
catch-up after the resume reads the thread back over REST."""

from __future__ import annotations

from typing import Any

from bot.kernel.events import Reply
from tests.discord.conftest import eventually, message_payload
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)

HOOK = 760000000000000001  # a webhook's id: its posts carry it as author id and webhook_id


def webhook_post(fake: FakeDiscord, thread_id: int, text: str) -> dict[str, Any]:
    """A webhook's message as Discord sends it: the author has no ``bot`` flag and the
    message no ``member`` (a webhook is not a member of the guild)."""
    fake.users[HOOK] = {"id": str(HOOK), "username": "CI", "discriminator": "0000", "avatar": None}
    message = fake.add_message(thread_id, HOOK, text, webhook_id=str(HOOK))
    return {**message, "guild_id": str(fake.guild_id)}


def handled(quiz: Quiz, message_id: str) -> int:  # noqa: F811
    return sum(1 for event, _ in quiz.handled.done if event.event_id == message_id)


async def test_a_webhook_post_is_not_an_answer_even_when_a_resume_replays_it(
    quiz: Quiz,  # noqa: F811
) -> None:
    fake = quiz.fake
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    assert round_.thread is not None
    thread = int(round_.thread)

    post = webhook_post(fake, thread, "build #812 passed")
    await fake.dispatch("MESSAGE_CREATE", post)
    answer = fake.add_message(thread, ANN, "shard the KV cache by head")
    await fake.dispatch("MESSAGE_CREATE", message_payload(fake, answer))
    await eventually(lambda: handled(quiz, answer["id"]) == 1)
    answers = await quiz.store.answers.round_answers(round_.id)
    assert [a.text for a in answers] == ["shard the KV cache by head"]

    # Discord moves the session (op 7); the client resumes, gets the post replayed with
    # one made meanwhile, and then reads the open round's thread back.
    history = rf"/channels/{thread}/messages"
    read_before = len(fake.requests_to("GET", history))
    later = webhook_post(fake, thread, "build #813 failed")
    await fake.reconnect(missed=[("MESSAGE_CREATE", post), ("MESSAGE_CREATE", later)])
    await eventually(lambda: fake.resumed == 1)
    await eventually(lambda: len(fake.requests_to("GET", history)) > read_before)
    platform = quiz.connected()
    assert platform._reconcile_task is not None
    await platform._reconcile_task  # the catch-up after the resume has fed the thread
    await eventually(lambda: handled(quiz, later["id"]) >= 1)
    await quiz.service.settle()

    answers = await quiz.store.answers.round_answers(round_.id)
    assert [(a.text, a.points) for a in answers] == [("shard the KV cache by head", 15)]
    hooks = [
        e for e, _ in quiz.handled.done if isinstance(e, Reply) and e.member.member_id == str(HOOK)
    ]
    assert hooks and all(e.is_bot for e in hooks)  # every path marks them as not a member's
