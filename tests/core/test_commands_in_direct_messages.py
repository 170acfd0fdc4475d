"""Which `/quiz` subcommands work in direct messages with the bot, declared once in the
registry: the member's own ones; never one that acts on a channel or an admin's use."""

from __future__ import annotations

from bot.commands.registry import QUIZ_COMMANDS, direct_refusal, works_in_direct

MEMBERS_OWN = {"help", "me", "grade", "goal", "practice", "remind", "topics", "packs"}


def test_only_the_members_own_commands_work_in_direct_messages() -> None:
    assert {c.name for c in QUIZ_COMMANDS if works_in_direct(c.name, ())} == MEMBERS_OWN


def test_an_admin_use_never_works_in_direct_messages() -> None:
    assert not any(c.in_direct for c in QUIZ_COMMANDS if c.admin)
    assert works_in_direct("topics", ())
    assert not works_in_direct("topics", ("enable", "networking"))
    assert works_in_direct("no-such-command", ())  # help, with a note


def test_the_refusal_says_where_to_run_it_and_what_works_here() -> None:
    text = direct_refusal("Now")
    assert text.startswith("`/quiz now` works only in a channel")
    assert all(f"`/quiz {name}`" in text for name in MEMBERS_OWN)
