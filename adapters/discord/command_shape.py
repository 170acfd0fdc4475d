"""Does a ``/quiz`` interaction match the command definitions this process registered?

After a command update, Discord clients may send a subcommand or an option the
running bot no longer has, or an option of another type; a forged payload may
send anything. discord.py would raise deep inside its tree (some of it outside
its error handler), so the shape is checked at the edge, before the tree runs,
and the member is told the command changed.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.enums import AppCommandOptionType

SUBCOMMAND = AppCommandOptionType.subcommand.value
SUBCOMMAND_GROUP = AppCommandOptionType.subcommand_group.value
VALUE_TYPES: dict[AppCommandOptionType, tuple[type, ...]] = {
    AppCommandOptionType.string: (str,),
    AppCommandOptionType.integer: (int,),
    AppCommandOptionType.boolean: (bool,),
    AppCommandOptionType.number: (int, float),
}


def mismatch(group: app_commands.Group, data: Any, *, autocomplete: bool = False) -> str | None:
    """Why ``data`` (an interaction's ``data``) does not fit ``group``; None when it does."""
    if not isinstance(data, dict):
        return "the interaction has no command data"
    if data.get("name") != group.name:
        return f"unknown command {str(data.get('name'))[:40]!r}"
    chosen = _only_option(data)
    if chosen is None:
        return "no subcommand"
    name = chosen.get("name")
    command = group.get_command(name) if isinstance(name, str) else None
    if isinstance(command, app_commands.Group) and chosen.get("type") == SUBCOMMAND_GROUP:
        chosen = _only_option(chosen)  # a subcommand of a group: ``/quiz round grade``
        if chosen is None:
            return f"{name}: no subcommand"
        name = chosen.get("name")
        command = command.get_command(name) if isinstance(name, str) else None
    if not isinstance(command, app_commands.Command) or chosen.get("type") != SUBCOMMAND:
        return f"unknown subcommand {str(name)[:40]!r}"
    given = chosen.get("options", [])
    if not isinstance(given, list):
        return f"{name}: options that are not a list"
    return _options_mismatch(command, given, autocomplete=autocomplete)


def _only_option(data: dict[str, Any]) -> dict[str, Any] | None:
    """The one option of a command or group (the subcommand or group chosen), if one."""
    options = data.get("options")
    if not isinstance(options, list) or len(options) != 1 or not isinstance(options[0], dict):
        return None
    chosen: dict[str, Any] = options[0]
    return chosen


def _options_mismatch(
    command: app_commands.Command[Any, ..., Any], given: list[Any], *, autocomplete: bool
) -> str | None:
    parameters = {p.name: p for p in command.parameters}
    seen: set[str] = set()
    for option in given:
        if not isinstance(option, dict):
            return f"{command.name}: an option that is not an object"
        name = option.get("name")
        parameter = parameters.get(name) if isinstance(name, str) else None
        if parameter is None or name in seen:
            return f"{command.name}: unknown option {str(name)[:40]!r}"
        seen.add(parameter.name)
        if option.get("type") != parameter.type.value:
            return f"{command.name}: option {parameter.name!r} of another type"
        if autocomplete and option.get("focused"):
            continue  # what the member is typing, checked when the command is sent
        value = option.get("value")
        types = VALUE_TYPES.get(parameter.type)
        wrong_bool = isinstance(value, bool) and parameter.type is not AppCommandOptionType.boolean
        if types is not None and (not isinstance(value, types) or wrong_bool):
            return f"{command.name}: option {parameter.name!r} has a value of another type"
    if autocomplete:
        if not any(option.get("focused") for option in given):
            return f"{command.name}: an autocomplete with no focused option"
        return None
    missing = [p.name for p in command.parameters if p.required and p.name not in seen]
    if missing:
        return f"{command.name}: missing option {missing[0]!r}"
    return None
