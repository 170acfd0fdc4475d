"""``/quiz help``: the list of every subcommand, members' first, from the registry's lines."""

from __future__ import annotations

from collections.abc import Sequence

from bot.commands.context import CommandContext
from bot.commands.grammar import Subcommand
from bot.commands.typed import Help
from bot.kernel.render import Card, CardKind, Response


def help_card(usages: Sequence[tuple[str, str, bool]], note: str = "") -> Card:
    """One line per subcommand: (form, summary, admin only), members' commands first."""
    lines = [note] if note else []
    lines += [f"`{form}` — {summary}" for form, summary, admin in usages if not admin]
    admins = [f"`{form}` — {summary}" for form, summary, admin in usages if admin]
    if admins:
        lines += ["", "Admins:", *admins]
    return Card(title="quizbot commands", body="\n".join(lines), kind=CardKind.INFO)


class HelpCommands:
    """The handler of ``/quiz help`` (and of an unknown subcommand)."""

    async def show_help(self, ctx: CommandContext, command: Help) -> Response:
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
