"""Forms: what the core asks a member to fill in (a Slack or Discord modal, console lines).

A command or button may answer with a :class:`Form`; the adapter shows it and sends the
filled-in values back as a :class:`~bot.kernel.events.FormSubmit`. A submission the core refuses
comes back with one problem per bad field, and the adapter keeps what the member typed
(Slack: errors on the still-open modal; elsewhere the reply repeats the input).

A field whose text is longer than the platform's input holds (a Slack modal takes 3,000
characters) is never shown cut: the adapter shows it empty with :func:`kept_note` and
leaves it out of the submission unless something was typed in it, and a field left out
keeps its text (an edit form stores the question's own).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from questions.question_check import FieldProblem

__all__ = ["FieldProblem", "Form", "FormField", "typed_back"]

FORM_FIELDS_LIMIT = 5  # Discord modals hold at most five text inputs
LABEL_LIMIT = 45  # Discord's limit on a text input's label
VALUE_LIMIT = 4000  # Discord's limit on a text input's value (Slack's adapter caps it lower)
CHOICES_LIMIT = 25  # Discord's limit on a select's options
CHOICE_LABEL_LIMIT = 75  # Slack's limit on an option's text (Discord's is 100)


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of a form: its name, label, and how it is filled in."""

    name: str
    label: str
    multiline: bool = False
    required: bool = True
    value: str = ""  # shown pre-filled
    hint: str = ""  # placeholder text
    max_length: int = VALUE_LIMIT  # the most the input lets a member type
    # A choice instead of text: the options' labels, numbered from 1; the value (shown and
    # submitted) is the chosen numbers separated by spaces ("1 3"). ``multiple``: ticks
    # (Slack checkboxes, a Discord multi-select), else one option.
    choices: tuple[str, ...] = ()
    multiple: bool = False

    def __post_init__(self) -> None:
        if len(self.label) > LABEL_LIMIT:
            raise ValueError(f"form label {self.label!r} is longer than {LABEL_LIMIT}")
        if len(self.choices) > CHOICES_LIMIT or (self.multiple and not self.choices):
            raise ValueError(f"form field {self.name!r}: 1 to {CHOICES_LIMIT} choices")
        if not 0 < self.max_length <= VALUE_LIMIT:
            raise ValueError(f"form field {self.name!r}: max_length must be 1 to {VALUE_LIMIT}")


@dataclass(frozen=True, slots=True)
class Form:
    """``kind`` says what the form is for and ``target`` which item (a suggestion id...)."""

    kind: str
    target: str
    title: str
    fields: tuple[FormField, ...]
    submit: str = "Submit"

    def __post_init__(self) -> None:
        if not 0 < len(self.fields) <= FORM_FIELDS_LIMIT:
            raise ValueError(f"a form holds 1 to {FORM_FIELDS_LIMIT} fields")


def kept_note(length: int, limit: int) -> str:
    """What a form says under a field whose ``length`` characters are more than its input
    holds (``limit``), shown empty instead of cut."""
    return (
        f"The current text ({length:,} characters) is longer than this form holds"
        f" ({limit:,}), so it is not shown: left empty, it stays as it is; what you type"
        " here replaces it."
    )


TYPED_BACK = "What you typed (nothing is lost; copy it into the form again):"


def typed_back(values: Mapping[str, str]) -> str:
    """Each filled-in field of a submission, exactly as typed, to repeat to the member."""
    return "\n\n".join(f"{name}:\n{text}" for name, text in values.items() if text.strip())


def chosen(value: str, choices: int) -> tuple[int, ...]:
    """The option numbers a choice field's submitted value names, each once, in order;
    numbers outside 1..``choices`` and other words are left out."""
    picked = {int(word) for word in _choice_words(value) if word.isdecimal()}
    return tuple(sorted(n for n in picked if 1 <= n <= choices))


def not_chosen(value: str, choices: int) -> list[str]:
    """The words of a submitted choice field that name no option of 1..``choices``:
    what a text form (the console's) may hold, and a pick list never sends."""
    return [w for w in _choice_words(value) if not (w.isdecimal() and 1 <= int(w) <= choices)]


def _choice_words(value: str) -> list[str]:
    """A choice field's submitted value as words: option numbers apart by spaces or commas."""
    return value.replace(",", " ").split()
