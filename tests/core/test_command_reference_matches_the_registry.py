"""The command reference (docs/commands.md) shows each ``/quiz`` form as the help does,
derived from the registry, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from bot.commands.grammar import Subcommand
from bot.commands.registry import QUIZ_COMMANDS, find_subcommand

REFERENCE = (Path(__file__).parents[2] / "docs" / "commands.md").read_text(encoding="utf-8")
TABLE_HEADER = "| command | who | what |"


def reference_forms() -> list[str]:
    """Every `/quiz ...` form of the first column of the reference's command table."""
    table = REFERENCE.split(TABLE_HEADER, 1)[1].split("\n\n", 1)[0]
    forms = []
    for row in table.splitlines()[2:]:
        first_cell = re.split(r"(?<!\\)\|", row)[1]
        forms += [f.replace("\\|", "|") for f in re.findall(r"`(/quiz [^`]*)`", first_cell)]
    return forms


def registry_forms(subcommand: Subcommand) -> set[str]:
    """The help's form, and the forms a table row may split it into: one per setting, and
    an optional argument part left out (what everyone runs) or given (what admins run)."""
    full = subcommand.form()
    forms = {full}
    head = f"/quiz {subcommand.name}"
    forms |= {f"{head} {s.form()}" for s in subcommand.settings}
    forms |= {form for form, _, _ in subcommand.usages()}
    rest = full.removeprefix(head).strip()
    if _one_optional_part(rest):
        forms |= {head, f"{head} {rest[1:-1]}"}
    return forms


def _one_optional_part(text: str) -> bool:
    """``[a [b]]`` but not ``[a] [b]``: one bracket spans the whole text."""
    if not text.startswith("["):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0:
            return index == len(text) - 1
    return False


def test_every_form_in_the_command_reference_is_the_help_s() -> None:
    forms = reference_forms()
    assert len(forms) >= len(QUIZ_COMMANDS)
    mismatched = []
    for form in forms:
        subcommand = find_subcommand(form.split()[1])
        if subcommand is None or form not in registry_forms(subcommand):
            mismatched.append(form)
    assert mismatched == []


def test_every_subcommand_has_a_row_in_the_readme_table() -> None:
    named = {form.split()[1] for form in reference_forms()}
    assert [c.name for c in QUIZ_COMMANDS if c.name not in named] == []
