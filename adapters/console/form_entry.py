"""A form on the console, filled in over several lines.

After a command that opens a form (``/quiz suggest``, ``/quiz review edit s3``) the console
shows the fields and reads lines until the terminator:

- ``NAME: text`` sets a field (``topic: kv-cache``);
- a line that does not start with a field name continues the previous field on a new line
  (an outline of several paragraphs; follow-ups and key points are one per line); a line
  that starts with a field's name written another way (``followups:``, ``Topic:``) is
  refused by that name, never added to the field above;
- a field of choices (ticks, a score) takes the numbers of the options it lists
  (``covered: 1 3 4``);
- ``.`` alone submits; ``:cancel`` drops the form.

A field named again replaces its text. When the bot refuses a field, the form stays open with
everything typed so far: set the named field again and submit with ``.``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from bot.kernel.forms import Form

SUBMIT = "."
CANCEL = ":cancel"
FIELD_LINE = re.compile(r"(?P<name>[a-z_]+):\s?(?P<text>.*)")


# what may be a field's name mistyped: a few words at the start of a line, then a colon
LOOSE_FIELD_LINE = re.compile(r"(?P<name>[A-Za-z][A-Za-z _-]{0,30}?)\s*:(\s|$)")
CLOSE_ENOUGH = 0.85  # difflib's ratio of a typo ("folowups") to its field's name


def meant_field(line: str, names: Collection[str]) -> tuple[str, str] | None:
    """(as typed, the field) when the line starts with a field's name written another way
    (``followups:``, ``Topic:``, ``key points:``, ``folowups:``); None for a line that
    names no field (``Note: ...`` continues the field above)."""
    match = LOOSE_FIELD_LINE.match(line.strip())
    if match is None:
        return None
    by_key = {_key(name): name for name in names}
    typed = match["name"]
    close = difflib.get_close_matches(_key(typed), by_key, n=1, cutoff=CLOSE_ENOUGH)
    return (typed, by_key[close[0]]) if close else None


def _key(name: str) -> str:
    return re.sub(r"[\s_-]", "", name.lower())


@dataclass
class FormEntry:
    """A form being filled in on the console, one line at a time."""

    form: Form
    values: dict[str, str] = field(default_factory=dict)
    _current: str | None = None

    def __post_init__(self) -> None:
        if not self.values:
            self.values = {f.name: f.value for f in self.form.fields}

    def instructions(self) -> list[str]:
        lines = [f"{self.form.title}: type `field: text` lines, then `{SUBMIT}` alone to submit"]
        lines.append(
            f"(a line without `field:` continues the field above; {CANCEL} drops the form)"
        )
        for form_field in self.form.fields:
            optional = "" if form_field.required else ", optional"
            how = ""
            if form_field.choices:
                how = " (numbers, such as `1 3`)" if form_field.multiple else " (one number)"
            lines.append(f"  {form_field.name}: {form_field.label}{how}{optional}")
            for number, choice in enumerate(form_field.choices, start=1):
                lines.append(f"      {number}. {choice}")
            for text in self.values.get(form_field.name, "").splitlines():
                lines.append(f"      {'chosen: ' if form_field.choices else ''}{text}")
        return lines

    def take(self, line: str) -> str | None:
        """Record one line; returns a note to show when the line was not understood."""
        match = FIELD_LINE.fullmatch(line.strip())
        names = {f.name for f in self.form.fields}
        if match is not None and match["name"] in names:
            self._current = match["name"]
            self.values[self._current] = match["text"].strip()
            return None
        if (named := meant_field(line, names)) is not None:
            typed, meant = named
            return (
                f"`{typed}:` is not a field of this form; did you mean `{meant}:`? The line"
                " was not taken: type it again"
            )
        if self._current is None:
            return f"start with one of the fields: {', '.join(sorted(names))}"
        before = self.values.get(self._current, "")
        self.values[self._current] = f"{before}\n{line.rstrip()}" if before else line.strip()
        return None
