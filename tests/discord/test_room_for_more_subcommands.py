"""Each Discord command keeps room for at least ten more subcommands: Discord takes at most
25 subcommands and groups under a command, 25 subcommands in a group and 25 options in a
subcommand, and refuses the whole sync (so the bot does not start) beyond them."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from adapters.discord.command_shape import mismatch
from adapters.discord.slash_commands import ADMIN_COMMAND, QuizGroup, discord_path
from bot.features import FAMILIES, QUIZ_SUBCOMMANDS, SUBCOMMANDS_BY_NAME

DISCORD_LIMIT = 25  # options of a command, a group or a subcommand
ROOM = 10  # each keeps room for this many more
CHARACTERS_LIMIT = 8000  # names, descriptions and choices of one command, nested included
SUBCOMMAND, GROUP = 1, 2


async def nothing(*args: Any) -> None:
    return None


def definition(name: str) -> dict[str, Any]:
    """The command as it is synced to Discord."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    payload: dict[str, Any] = QuizGroup(nothing, topics=list, name=name).to_dict(tree)
    return payload


def crowded(node: dict[str, Any], path: str) -> list[str]:
    """Every command, group or subcommand of ``node`` with less than ROOM places left."""
    options = node.get("options") or []
    found = [f"{path}: {len(options)}"] if len(options) > DISCORD_LIMIT - ROOM else []
    for option in options:
        if option["type"] in (SUBCOMMAND, GROUP):
            found += crowded(option, f"{path} {option['name']}")
    return found


def characters(node: dict[str, Any]) -> int:
    count = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        count += len(choice["name"]) + len(str(choice["value"]))
    return count + sum(characters(option) for option in node.get("options") or [])


@pytest.mark.parametrize("name", ["quiz", ADMIN_COMMAND])
def test_every_command_and_group_has_room_for_ten_more(name: str) -> None:
    command = definition(name)
    assert crowded(command, f"/{name}") == []
    assert characters(command) <= CHARACTERS_LIMIT


def test_a_family_is_a_group_of_member_subcommands_named_apart() -> None:
    """A family never holds an admins-only subcommand (those are under /quiz-admin), is
    named like no subcommand (a group cannot also be run), and a subcommand is in one
    family at most."""
    names = {c.name for c in QUIZ_SUBCOMMANDS}
    members = [m.name for family in FAMILIES for m in family.members]
    assert len(members) == len(set(members))
    assert [m for f in FAMILIES for m in f.members if m.admin] == []
    assert {f.name for f in FAMILIES} & names == set()
    assert discord_path(SUBCOMMANDS_BY_NAME["grade"]) == ("quiz", "round", "grade")
    assert discord_path(SUBCOMMANDS_BY_NAME["now"]) == (ADMIN_COMMAND, "now")
    assert discord_path(SUBCOMMANDS_BY_NAME["me"]) == ("quiz", "me")


def interaction(*path: str, options: list[Any] | None = None) -> dict[str, Any]:
    """A /quiz interaction's data choosing ``path`` (a group's subcommand when two deep)."""
    chosen: dict[str, Any] = {"name": path[-1], "type": SUBCOMMAND, "options": options or []}
    if len(path) == 2:
        chosen = {"name": path[0], "type": GROUP, "options": [chosen]}
    return {"name": "quiz", "options": [chosen]}


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (interaction("round", "grade"), None),
        (interaction("me"), None),
        (interaction("round", "grade", options=[{"name": "x", "type": 3, "value": "1"}]), "x"),
        (interaction("round", "frobnicate"), "unknown subcommand 'frobnicate'"),
        (interaction("grade"), "unknown subcommand 'grade'"),  # outside its group
        (interaction("round"), "unknown subcommand 'round'"),  # a group run as a command
        ({"name": "quiz", "options": [{"name": "round", "type": GROUP}]}, "round: no subcommand"),
    ],
)
def test_a_groups_subcommand_is_checked_as_the_others(
    data: dict[str, Any], reason: str | None
) -> None:
    found = mismatch(QuizGroup(nothing, topics=list), data)
    assert found is None if reason is None else reason in str(found)
