"""``/quiz help``: the list of every subcommand, members' first, from the registry's lines;
for a subcommand that does not exist, the ones it most likely meant and a short list."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from bot.kernel.render import Card, CardKind, Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Subcommand
from bot.quiz_command.typed import Help

SUGGESTED = 2  # an unknown subcommand's card names at most this many it may have meant


def help_card(usages: Sequence[tuple[str, str, bool]], note: str = "") -> Card:
    """One line per subcommand: (form, summary, admin only), members' commands first."""
    lines = [note] if note else []
    lines += [f"`{form}` — {summary}" for form, summary, admin in usages if not admin]
    admins = [f"`{form}` — {summary}" for form, summary, admin in usages if admin]
    if admins:
        lines += ["", "Admins:", *admins]
    return Card(title="quizbot commands", body="\n".join(lines), kind=CardKind.INFO)


def unknown_command_card(typed: str, usages: Sequence[tuple[str, str, bool]]) -> Card:
    """``/quiz leaderbord``: the commands it most likely meant, with their forms, and the
    names of all of them on one line, instead of the whole help (forty lines)."""
    lines_by_name: dict[str, tuple[str, str]] = {}
    for form, summary, _ in usages:
        lines_by_name.setdefault(form.split()[1], (form, summary))  # "/quiz NAME ..."
    names = list(lines_by_name)
    starting = [name for name in names if name.startswith(typed)]
    close = difflib.get_close_matches(typed, names, n=SUGGESTED)
    meant = list(dict.fromkeys([*starting, *close]))[:SUGGESTED]
    command = usages[0][0].split()[0] if usages else "/quiz"  # "/quiz" (or a platform's own)
    lines = [f"`{command} {typed}` is not a command."]
    if meant:
        forms = " or ".join(
            f"`{lines_by_name[name][0]}` ({lines_by_name[name][1]})" for name in meant
        )
        lines.append(f"Did you mean {forms}?")
    lines.append(f"Commands: {', '.join(names)}. `{command} help` describes each.")
    return Card(title="Unknown command", body="\n".join(lines), kind=CardKind.INFO)


class HelpCommands:
    """The handler of ``/quiz help`` (and of an unknown subcommand)."""

    async def show_help(self, ctx: CommandContext, command: Help) -> Response:
        if command.unknown:
            return Response(unknown_command_card(command.unknown, ctx.usages))
        return Response(help_card(ctx.usages, command.note))


HELP = Subcommand(
    "help",
    "this list",
    "/quiz help",
    build=lambda _: Help(),
    handler=HelpCommands.show_help,
    needs_channel=False,
    in_direct=True,
)
