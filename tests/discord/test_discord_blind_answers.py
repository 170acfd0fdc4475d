"""Blind answers on Discord: the question's Answer button opens a modal as the interaction's
first response, `/quiz answer` is confirmed ephemerally, the reveal posts each answer once in
the thread and a 👍 on a posted answer is a vote for its author."""

from __future__ import annotations

from typing import Any

import pytest

from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.discord.conftest import (
    button_payload,
    eventually,
    message_payload,
    modal_submit_payload,
    reaction_payload,
)
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    EPHEMERAL,
    LEAD,
    Quiz,
    bot_posts,
    quiz,
)
from tests.fakes import SimulatedCrash

MODAL = 9  # InteractionResponseType.modal


async def blind_question(quiz: Quiz) -> dict[str, Any]:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "answers", "value": "blind"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    [question] = [
        m for m in quiz.fake.channel_messages() if m["embeds"][0]["title"] == "Question #1"
    ]
    return question


def last_private_text(quiz: Quiz) -> str:  # noqa: F811
    reply = quiz.fake.interaction_replies[-1]
    body = reply.get("data", reply)
    assert body["flags"] & EPHEMERAL
    return " ".join(f"{e.get('title', '')}: {e.get('description', '')}" for e in body["embeds"])


async def press_answer(quiz: Quiz, user: int, question: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    round_ = await quiz.round()
    replies = len(quiz.fake.interaction_replies)
    press = button_payload(quiz.fake, user, question, f"quizbot:answer:{round_.id}")
    await quiz.run("INTERACTION_CREATE", press)
    await eventually(lambda: len(quiz.fake.interaction_replies) > replies)
    return quiz.fake.interaction_replies[-1]


async def submit(quiz: Quiz, user: int, custom_id: str, text: str) -> str:  # noqa: F811
    replies = len(quiz.fake.interaction_replies)
    await quiz.run(
        "INTERACTION_CREATE", modal_submit_payload(quiz.fake, user, custom_id, {"answer": text})
    )
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    return last_private_text(quiz)


async def test_the_answer_button_opens_a_modal_and_the_answer_is_confirmed_privately(
    quiz: Quiz,  # noqa: F811
) -> None:
    question = await blind_question(quiz)
    round_ = await quiz.round()
    buttons = [c["custom_id"] for c in question["components"][0]["components"]]
    assert buttons == [f"quizbot:answer:{round_.id}", f"quizbot:reveal:{round_.id}"]

    first = await press_answer(quiz, ANN, question)
    assert first["type"] == MODAL  # not deferred: a modal must be the first response
    [modal] = quiz.fake.modals()
    assert modal["custom_id"] == f"quizbot-form:answer:{round_.id}:{ANN}"  # the member's own
    [[text_input]] = [row["components"] for row in modal["components"]]
    assert text_input["custom_id"] == "answer" and text_input["style"] == 2  # paragraph
    assert text_input["max_length"] == 3000  # what the bot takes, on every platform

    saved = await submit(quiz, ANN, modal["custom_id"], "ring all-reduce")
    assert "Answer saved (only you see it)" in saved
    assert round_.thread is not None
    assert bot_posts(quiz.fake, int(round_.thread)) == []  # nothing public yet

    await quiz.command(ANN, "answer", {"text": "tree all-reduce"})
    assert "Answer changed (only you see it)" in last_private_text(quiz)
    [stored] = await quiz.store.answers.round_answers(round_.id)
    assert stored.text == "tree all-reduce" and stored.points == 15


async def test_the_reveal_posts_each_answer_once_and_votes_count_for_its_author(
    quiz: Quiz,  # noqa: F811
) -> None:
    question = await blind_question(quiz)
    round_ = await quiz.round()
    assert round_.thread is not None
    thread = int(round_.thread)
    await press_answer(quiz, ANN, question)
    await submit(quiz, ANN, quiz.fake.modals()[-1]["custom_id"], "ann's idea")
    await quiz.command(BOB, "answer", {"text": "bob's idea"})

    reply = quiz.fake.add_message(thread, LEAD, "typed in the thread")
    await quiz.run("MESSAGE_CREATE", message_payload(quiz.fake, reply))
    dms = [c for c, json in quiz.fake.channels.items() if json["type"] == 1]
    hints = [m for dm in dms for m in bot_posts(quiz.fake, dm)]
    assert any("Blind mode is on" in str(m["embeds"]) for m in hints)  # told privately

    await quiz.command(LEAD, "reveal")
    await quiz.service.settle()
    titles = [m["embeds"][0]["title"] for m in bot_posts(quiz.fake, thread)]
    assert titles[-3:] == ["ann's answer", "@everyone <@&1>'s answer", "Sample answer outline"]
    for request in quiz.fake.requests_to("POST", rf"/channels/{thread}/messages"):
        assert request.body["allowed_mentions"] == {"parse": []}  # a hostile name never pings

    [anns] = [m for m in bot_posts(quiz.fake, thread) if m["embeds"][0]["title"] == "ann's answer"]
    await quiz.run(
        "MESSAGE_REACTION_ADD", reaction_payload(quiz.fake, thread, int(anns["id"]), BOB, "👍")
    )
    answers = {a.text: a for a in await quiz.store.answers.round_answers(round_.id)}
    assert answers["ann's idea"].message_id == anns["id"]
    assert (answers["ann's idea"].votes, answers["ann's idea"].points) == (1, 16)

    await quiz.service.settle()
    assert len(bot_posts(quiz.fake, thread)) == len(titles)  # nothing posted twice

    await quiz.command(BOB, "answer", {"text": "too late"})
    assert "already revealed, so answers are closed" in last_private_text(quiz)


async def test_a_crash_between_two_posts_posts_each_answer_once(
    quiz: Quiz,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await blind_question(quiz)
    round_ = await quiz.round()
    assert round_.thread is not None
    thread = int(round_.thread)
    for member, text in ((ANN, "ann's idea"), (BOB, "bob's idea"), (LEAD, "lead's idea")):
        await quiz.command(member, "answer", {"text": text})
    platform = quiz.connected()
    real_reply = platform.reply
    sent: list[str] = []

    async def crash_after_the_third(thread_ref: ThreadRef, card: Card, *, key: str) -> MessageRef:
        posted = await real_reply(thread_ref, card, key=key)
        sent.append(key)
        if len(sent) == 3:  # follow-ups, ann's, bob's: sent, never recorded
            raise SimulatedCrash(key)
        return posted

    monkeypatch.setattr(platform, "reply", crash_after_the_third)
    await quiz.command(LEAD, "reveal")
    with pytest.raises(SimulatedCrash):
        await quiz.service.settle()
    monkeypatch.undo()
    quiz.clock.advance(minutes=10)  # Discord forgot the nonces: found by their markers
    quiz.fake.forget_nonces = True
    await quiz.service.settle()

    titles = [m["embeds"][0]["title"] for m in bot_posts(quiz.fake, thread)]
    assert titles == [
        "Follow-up questions",
        "ann's answer",
        "@everyone <@&1>'s answer",
        "lead's answer",
        "Sample answer outline",
    ]
    stored = {a.text: a.message_id for a in await quiz.store.answers.round_answers(round_.id)}
    posted = {m["embeds"][0]["title"]: m["id"] for m in bot_posts(quiz.fake, thread)}
    assert stored["bob's idea"] == posted["@everyone <@&1>'s answer"]
