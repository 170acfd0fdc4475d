"""Which `/quiz` subcommands work in direct messages with the bot, declared once in the
registry: the member's own ones; never one that acts on a channel or an admin's use."""

from __future__ import annotations

import re

from bot.features import (
    QUIZ_SUBCOMMANDS,
    direct_refusal,
    parse_invocation,
    works_in_direct,
)
from bot.kernel.events import Command
from bot.kernel.refs import ChannelRef
from tests.harness import QuizHarness

MEMBERS_OWN = {
    "help",
    "me",
    "grade",
    "goal",
    "practice",
    "hint",
    "remind",
    "away",
    "coach",
    "export",
    "forget",
    "topics",
    "packs",
}


def test_only_the_members_own_commands_work_in_direct_messages() -> None:
    assert {c.name for c in QUIZ_SUBCOMMANDS if works_in_direct(c.name, ())} == MEMBERS_OWN


def test_an_admin_use_never_works_in_direct_messages() -> None:
    assert not any(c.in_direct for c in QUIZ_SUBCOMMANDS if c.admin)
    assert works_in_direct("topics", ())
    assert not works_in_direct("topics", ("enable", "networking"))
    assert works_in_direct("no-such-command", ())  # help, with a note


def test_the_refusal_says_where_to_run_it_and_what_works_here() -> None:
    text = direct_refusal("Now")
    assert text.startswith("`/quiz now` works only in a channel")
    assert all(f"`/quiz {name}`" in text for name in MEMBERS_OWN)


async def test_help_in_direct_messages_lists_only_what_works_there(quiz: QuizHarness) -> None:
    dm = ChannelRef(quiz.channel.platform, quiz.channel.workspace, "D1", "alice")
    event = Command("ev-dm", dm, quiz.member("alice"), "help", (), direct=True)

    response = await quiz.service.handle(event)

    assert response is not None
    listed = set(re.findall(r"`/quiz ([a-z-]+)", response.card.plain_text()))
    assert listed == MEMBERS_OWN
    assert "Admins" not in response.card.plain_text()
    assert "`/quiz topics`" in response.card.plain_text()  # as a member lists them


async def test_help_in_a_channel_still_lists_everything(quiz: QuizHarness) -> None:
    text = (await quiz.command("help", by="alice")).card.plain_text()
    assert set(re.findall(r"`/quiz ([a-z-]+)", text)) == {c.name for c in QUIZ_SUBCOMMANDS}


def test_an_admins_use_of_a_command_that_works_here_is_refused_as_that_use() -> None:
    text = parse_invocation("topics", ("enable", "attention")).direct_refusal()
    assert text.startswith("`/quiz topics enable` changes a channel: run it in the quiz's")
    # what does work here is the member's use, said as such, not the refused command
    assert "`/quiz topics` (as a member) works here" in text
