"""An answer takes one trip through the core: its channel is looked up once, and a
channel that answers in the thread never consults blind mode.

The inbound chain looked the channel up to see whether the reply was in a quiz channel,
then blind mode looked it up to see whether the channel answers blind, the engine looked
it up to record the answer, and blind mode again to decide on a hint: four lookups and
two blind-mode checks for every answer of a thread-mode channel.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.kernel.events import Reply
from bot.kernel.models import AnswerMode
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from tests.harness import QuizHarness


async def reply(quiz: QuizHarness, thread: str, text: str) -> None:
    """Ann's reply in the round's thread, as a platform delivers it."""
    channel = quiz.channel
    await quiz.service.handle(
        Reply(
            "ev-answer",
            channel,
            ThreadRef(channel, thread),
            MessageRef(channel, "m-answer"),
            quiz.member("ann"),
            text,
        )
    )


class Lookups:
    def __init__(self, quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.channels = 0
        self.blind_calls: list[str] = []
        engine = quiz.service.engine
        real_channel = engine.channel

        async def channel(ref: ChannelRef) -> Any:
            self.channels += 1
            return await real_channel(ref)

        monkeypatch.setattr(engine, "channel", channel)
        blind = quiz.service.blind
        for name in ("take_reply", "hint_after_reply"):
            real = getattr(blind, name)

            def counted(*args: Any, _name: str = name, _real: Any = real) -> Any:
                self.blind_calls.append(_name)
                return _real(*args)

            monkeypatch.setattr(blind, name, counted)


async def test_an_answer_in_a_thread_mode_channel_looks_its_channel_up_once(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    lookups = Lookups(quiz, monkeypatch)

    await reply(quiz, thread, "shard the KV cache by attention head")
    looked_up, blind_calls = lookups.channels, list(lookups.blind_calls)

    [answer] = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert answer.text == "shard the KV cache by attention head"
    assert looked_up == 1
    assert blind_calls == []


async def test_an_answer_in_a_blind_channel_still_looks_its_channel_up_once(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await quiz.command("config answers blind")
    await quiz.command("now")
    thread = await quiz.thread()
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None and channel.answer_mode is AnswerMode.BLIND
    lookups = Lookups(quiz, monkeypatch)

    await reply(quiz, thread, "a reply in the thread of a blind round")
    looked_up, blind_calls = lookups.channels, list(lookups.blind_calls)

    [answer] = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert answer.text == "a reply in the thread of a blind round"
    assert looked_up == 1
    assert blind_calls == ["take_reply", "hint_after_reply"]
