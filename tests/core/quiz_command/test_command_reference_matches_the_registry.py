"""The command reference (docs/commands.md) shows each ``/quiz`` form as the help does,
derived from the registry, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from bot.features import QUIZ_SUBCOMMANDS, find_subcommand
from bot.quiz_command.grammar import Subcommand

REFERENCE = (Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8")
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
    the optional argument parts left out (what everyone runs) or one of them given (what
    admins run: ``/quiz schedule SPEC... [TIMEZONE]``, ``/quiz schedule skip|unskip ...``)."""
    full = subcommand.form()
    forms = {full}
    head = f"/quiz {subcommand.name}"
    forms |= {f"{head} {s.form()}" for s in subcommand.settings}
    forms |= {form for form, _, _ in subcommand.usages()}
    parts = _optional_parts(full.removeprefix(head).strip())
    if parts:
        forms |= {head, *(f"{head} {part[1:-1]}" for part in parts)}
    return forms


def _optional_parts(text: str) -> list[str]:
    """``[a [b]] [c]`` as ``["[a [b]]", "[c]"]``; none when anything is outside a bracket."""
    parts: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if depth == 0 and char == " ":
            start = index + 1
            continue
        if depth == 0 and char != "[":
            return []
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0:
            parts.append(text[start : index + 1])
    return parts if depth == 0 else []


def test_every_form_in_the_command_reference_is_the_help_s() -> None:
    forms = reference_forms()
    assert len(forms) >= len(QUIZ_SUBCOMMANDS)
    mismatched = []
    for form in forms:
        subcommand = find_subcommand(form.split()[1])
        if subcommand is None or form not in registry_forms(subcommand):
            mismatched.append(form)
    assert mismatched == []


def test_every_subcommand_has_a_row_in_the_readme_table() -> None:
    named = {form.split()[1] for form in reference_forms()}
    assert [c.name for c in QUIZ_SUBCOMMANDS if c.name not in named] == []
