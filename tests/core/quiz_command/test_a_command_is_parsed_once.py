"""One ``/quiz`` invocation is parsed once: the inbound chain's rules (direct messages,
admins) and the runner all read that one parse, so they cannot disagree about it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot.kernel.events import Command
from bot.kernel.refs import ChannelRef
from bot.quiz_command.grammar import Subcommand
from tests.harness import QuizHarness


def counting(calls: Counter[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return method(*args, **kwargs)

    return counted


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    counter: Counter[str] = Counter()
    for name in ("parse", "needs_admin"):
        monkeypatch.setattr(Subcommand, name, counting(counter, name, getattr(Subcommand, name)))
    return counter


async def test_a_practice_command_in_a_channel_is_parsed_and_judged_once(
    quiz: QuizHarness, calls: Counter[str]
) -> None:
    await quiz.command("practice attention", by="ann")
    assert calls == {"parse": 1, "needs_admin": 1}


async def test_a_practice_command_in_direct_messages_is_parsed_and_judged_once(
    quiz: QuizHarness, calls: Counter[str]
) -> None:
    direct = ChannelRef(quiz.platform.name, quiz.channel.workspace, "D-ann", "DM")
    event = Command(
        quiz.event_id(), direct, quiz.member("ann"), "practice", ("attention",), direct=True
    )
    await quiz.service.handle(event)
    assert calls == {"parse": 1, "needs_admin": 1}


async def test_an_admin_command_is_parsed_and_judged_once(
    quiz: QuizHarness, calls: Counter[str]
) -> None:
    await quiz.command("pause")
    assert calls == {"parse": 1, "needs_admin": 1}
