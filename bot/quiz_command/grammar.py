"""How a ``/quiz`` subcommand is declared, and the text grammar derived from the declaration.

A :class:`Subcommand` names its parameters (:class:`Param`) with their kinds and allowed
values. From that one declaration come the usage line of the help card, the admin rule,
the words grammar Slack and the console use (:func:`parse_words`) and, in the Discord
adapter, the typed slash command.

A free-text parameter (:attr:`ParamKind.TEXT`, always the last) keeps what the member
typed exactly: given the raw text of the arguments (:func:`bot.kernel.events.split_command`),
it is the rest of that text after the words parsed before it, never its words joined.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.kernel.durations import parse_minutes
from bot.kernel.models import ChannelSettings
from bot.kernel.quoting import quoted
from bot.quiz_command.typed import CommandError

if TYPE_CHECKING:
    from bot.kernel.render import Response
    from bot.quiz_command.context import CommandContext
    from bot.quiz_command.typed import QuizCommand

C = TypeVar("C")
Value = str | bool | float | int | tuple[str, ...]
Arguments = Mapping[str, Value]
LONGEST_NUMBER = 12  # digits; Python refuses to convert digit strings above ~4,300


class ParamKind(StrEnum):
    """What kind of value a parameter takes, which decides how it is parsed and offered."""

    FLAG = "flag"  # the parameter's own name as a word, e.g. ``public``
    CHOICE = "choice"  # one of ``choices``
    WORD = "word"  # one free word
    WORDS = "words"  # one or more free words
    TEXT = "text"  # free text to the end, kept exactly as typed (the last parameter only)
    NUMBER = "number"  # a number from ``minimum`` to ``maximum``
    EMOJI = "emoji"  # one emoji
    DURATION = "duration"  # whole minutes from "30m", "4h", "1h30m" (``alone``: 0, i.e. off)


class Suggest(StrEnum):
    """Where a platform finds values to offer while a member types a free parameter."""

    TOPICS = "topics"
    TIMEZONES = "timezones"


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a subcommand: its kind, allowed values and how it is explained."""

    name: str
    kind: ParamKind
    description: str
    metavar: str = ""
    label: str = ""  # what one value is called in messages ("topic")
    choices: tuple[str, ...] = ()
    required: bool = False  # with ``needs``: required once that parameter is given
    admin: bool = False  # giving it makes the invocation an admin one
    needs: str = ""  # given only after this parameter
    recognize: Callable[[str], bool] | None = None  # a trailing word that is this parameter
    minimum: float = 0
    maximum: float = 0
    integer: bool = False
    invalid: str = ""  # the message for a value of the wrong form
    missing: str = ""  # the message when a required parameter is not given
    alone: str = ""  # a word given instead of a value, with nothing after it ("off")
    suggest: Suggest | None = None
    # of a first parameter's choices: the ones that make the invocation an admin one
    # (``/quiz pair schedule``), the others staying every member's (``/quiz pair on``)
    admin_choices: tuple[str, ...] = ()

    def form(self) -> str:
        match self.kind:
            case ParamKind.FLAG:
                return self.name
            case ParamKind.CHOICE:  # a metavar stands for choices too many to list
                return self.metavar or "|".join(self.choices)
            case ParamKind.WORDS | ParamKind.TEXT:
                return f"{self.metavar}..."
        return self.metavar

    def convert(self, word: str) -> Value:
        """The value of one word; raises ValueError with :attr:`invalid` when it does not fit."""
        match self.kind:
            case ParamKind.CHOICE:
                if word.lower() not in self.choices:
                    raise ValueError(
                        self.invalid.format(value=quoted(word)) or self._expected(word)
                    )
                return word.lower()
            case ParamKind.NUMBER:
                return self._number(word)
            case ParamKind.EMOJI:
                if len(word) > 64 or word.isalnum():
                    raise ValueError(self.invalid.format(value=quoted(word)))
                return word
            case ParamKind.DURATION:
                return self._minutes(word)
        return word

    def _expected(self, word: str) -> str:
        options = " or ".join(repr(c) for c in self.choices)
        return f"Expected {options}, not {quoted(word)}."

    def _minutes(self, word: str) -> int:
        if self.alone and word.lower() == self.alone:
            return 0
        try:
            minutes = parse_minutes(word) if len(word) <= LONGEST_NUMBER else -1
        except ValueError:
            minutes = -1
        if not self.minimum <= minutes <= self.maximum:
            raise ValueError(self.invalid.format(value=quoted(word)))
        return minutes

    def _number(self, word: str) -> float | int:
        number: float | int = math.nan
        if len(word) <= LONGEST_NUMBER:
            if self.integer and word.isascii() and word.isdigit():
                number = int(word)
            elif not self.integer:
                with contextlib.suppress(ValueError):
                    number = float(word)
        if not self.minimum <= number <= self.maximum:
            raise ValueError(self.invalid.format(value=quoted(word)))
        return number


@dataclass(frozen=True, slots=True)
class Setting(Generic[C]):
    """One channel setting of ``/quiz config``: its value, the command that sets it, and
    how its current value is read from a channel's settings and shown."""

    name: str
    value: Param
    build: Callable[[Any], C]
    read: Callable[[ChannelSettings], Any]
    show: Callable[[Any], str] = str

    def form(self) -> str:
        """``grace HOURS``."""
        return f"{self.name} {self.value.form()}"

    def shown(self, channel: ChannelSettings) -> str:
        """The channel's value of this setting, as members read it."""
        return self.show(self.read(channel))


SETTING_NAME = "setting"  # the argument a subcommand with settings builds its view from


def _unbuilt(arguments: Arguments) -> QuizCommand:
    """The build of a subcommand that parses its words another way (``settings``)."""
    raise LookupError("this subcommand builds its command from its settings")


# A handler is a method of its feature's commands class (e.g. ``PracticeCommands.practice``),
# declared unbound; the runner calls it on the instance the service built with what it uses.
# None: nothing more to tell the member (what they asked for was sent where it belongs).
Handler = Callable[[Any, "CommandContext", Any], Awaitable["Response | None"]]


# a date in an example, N days after the day it is shown: ``{today+45}``
_EXAMPLE_DATE = re.compile(r"\{today\+(\d+)\}")


class PartProblem(ValueError):
    """A bad value of one part of a subcommand (``/quiz pair schedule``), told with that
    part's own form and example rather than the subcommand's."""

    def __init__(self, message: str, *, form: str, example: str) -> None:
        super().__init__(message)
        self.form = form
        self.example = example


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One ``/quiz`` subcommand, declared once: everything else is derived from it."""

    name: str
    summary: str
    example: str  # a date in it is written ``{today+N}`` (see example_on)
    handler: Handler
    # the typed command from parsed arguments; for a subcommand with settings, the command
    # that shows them (all, or the one named by SETTING_NAME)
    build: Callable[[Arguments], QuizCommand] = _unbuilt
    params: tuple[Param, ...] = ()
    settings: tuple[Setting[Any], ...] = ()
    admin: bool = False  # always needs an admin, whatever its arguments
    needs_channel: bool = True  # a member's use needs a quiz in the channel
    in_direct: bool = False  # also works in direct messages with the bot (never an admin's use)

    def __post_init__(self) -> None:
        if any(p.kind is ParamKind.TEXT for p in self.params[:-1]):
            raise ValueError(f"/quiz {self.name}: only the last parameter may be free text")

    def form(self) -> str:
        """``/quiz leaderboard [week|month|all] [public]``."""
        if self.settings:
            forms = " | ".join(s.form() for s in self.settings)
            return f"/quiz {self.name} {forms}"
        leading = [self._form(p) for p in self.params if not p.needs]
        return " ".join([f"/quiz {self.name}", *leading])

    def member_form(self) -> str:
        """The form without the parameters only admins give: ``/quiz topics``."""
        leading = [self._form(p) for p in self.params if not p.needs and not p.admin]
        return " ".join([f"/quiz {self.name}", *leading])

    def _form(self, param: Param) -> str:
        followers = [self._form(p) for p in self.params if p.needs == param.name]
        text = " ".join([param.form(), *followers])
        if param.alone:  # first, so the followers read as coming after the value only
            text = f"{param.alone}|{text}"
        return text if param.required else f"[{text}]"

    def view_form(self) -> str:
        """``/quiz config [SETTING]``: how a subcommand with settings shows them."""
        return f"/quiz {self.name} [SETTING]" if self.settings else ""

    def usages(self) -> tuple[tuple[str, str, bool], ...]:
        """The help's lines of this subcommand: (form, summary, admin only). A subcommand
        with settings has two: everyone may view them, only admins change them."""
        if self.settings:
            view = (self.view_form(), "the channel's settings and how to change them", False)
            return (view, (self.form(), self.summary, True))
        return ((self.form(), self.summary, self.admin),)

    def needs_admin(self, words: Sequence[str]) -> bool:
        given = [w for w in words if w.strip()]
        if self.settings:  # naming a setting shows it; giving a value changes it
            return self.admin or len(given) > 1
        if self.admin or not given:
            return self.admin
        if self.params and given[0].lower() in self.params[0].admin_choices:
            return True
        admin_params = [p for p in self.params if p.admin]
        if admin_params and all(p.kind in (ParamKind.FLAG, ParamKind.CHOICE) for p in self.params):
            # options in any order: an admin's use only when an admin option is given
            return any(_fits(p, w) for p in admin_params for w in given)
        return bool(admin_params)

    def example_on(self, today: date) -> str:
        """The example as shown on ``today``: each ``{today+N}`` is the date N days on, so
        that an example date is never one the command refuses as past."""
        return _EXAMPLE_DATE.sub(
            lambda days: (today + timedelta(days=int(days[1]))).isoformat(), self.example
        )

    def problem(self, text: str, part: PartProblem | None = None) -> CommandError:
        """The error told for ``text``, with the form and example of the subcommand, or of
        the ``part`` of it that was wrong."""
        if part is not None:
            return CommandError(f"{text}\nUse: {part.form}\nExample: {part.example}")
        example = self.example_on(datetime.now(UTC).date())
        return CommandError(f"{text}\nUse: {self.form()}\nExample: {example}")

    def parse(self, words: Sequence[str], text: str | None = None) -> QuizCommand:
        """The typed command for these words; raises CommandError with the form on bad input.

        ``text`` is the raw text the words were split from (None: each word is one argument
        as the platform gave it, e.g. a Discord option, kept whole); a free-text parameter
        is taken from it as typed."""
        try:
            if self.settings:
                return self._parse_setting(words)
            if not self.params:
                if words:
                    raise ValueError(f"/quiz {self.name} takes no arguments.")
                return self.build({})
            if all(p.kind in (ParamKind.FLAG, ParamKind.CHOICE) for p in self.params):
                return self.build(self._parse_options(words))
            return self.build(self._parse_positional(words, text))
        except PartProblem as bad:
            raise self.problem(str(bad), bad) from None
        except ValueError as bad:
            raise self.problem(str(bad)) from None

    def _parse_options(self, words: Sequence[str]) -> dict[str, Value]:
        """Flags and choices in any order, each at most once."""
        values: dict[str, Value] = {}
        for word in words:
            param = next((p for p in self.params if p.name not in values and _fits(p, word)), None)
            if param is None:
                raise ValueError(f"Unexpected {quoted(word)}.")
            values[param.name] = True if param.kind is ParamKind.FLAG else word.lower()
        return values

    def _parse_positional(self, words: Sequence[str], text: str | None) -> dict[str, Value]:
        values: dict[str, Value] = {}
        rest = list(words)
        for index, param in enumerate(self.params):
            later = self.params[index + 1 :]
            if param.kind is ParamKind.TEXT:
                if rest:
                    values[param.name] = _free_text(words, len(words) - len(rest), text)
                rest = []
            elif param.kind is ParamKind.WORDS:
                trailing = bool(rest) and any(p.recognize and p.recognize(rest[-1]) for p in later)
                keep = 1 if trailing else 0
                taken, rest = rest[: len(rest) - keep], rest[len(rest) - keep :]
                if taken:
                    values[param.name] = tuple(taken)
            elif rest and (param.recognize is None or param.recognize(rest[0])):
                values[param.name] = param.convert(rest.pop(0))
            if param.name in values and param.needs and param.needs not in values:
                needed = next(p for p in self.params if p.name == param.needs)
                raise ValueError(f"The {needed.label} is missing before the {param.label}.")
            if param.name not in values and param.required and _given(param.needs, values):
                raise ValueError(param.missing or f"Name at least one {param.label}.")
            if _stands_alone(param, values):
                break  # what follows is refused below, not read as the next parameters
        alone = next((p.alone for p in self.params if _stands_alone(p, values)), None)
        if alone is not None and (rest or len(values) > 1):
            raise ValueError(f"{alone} takes nothing after it.")
        if rest:
            last = self.params[-1]
            if last.kind is ParamKind.WORD and last.name in values:
                raise ValueError(f"Name at most one {last.label}.")
            raise ValueError(f"Unexpected {quoted(' '.join(rest))}.")
        return values

    def _parse_setting(self, words: Sequence[str]) -> QuizCommand:
        if not words:
            return self.build({})
        if len(words) > 2:
            raise ValueError("Give one setting and its value, or one setting to see it.")
        setting = next((s for s in self.settings if s.name == words[0].lower()), None)
        if setting is None:
            known = ", ".join(s.name for s in self.settings)
            raise ValueError(f"Unknown setting {quoted(words[0])}: the settings are {known}.")
        if len(words) == 1:
            return self.build({SETTING_NAME: setting.name})
        command: QuizCommand = setting.build(setting.value.convert(words[1]))
        return command


def _free_text(words: Sequence[str], parsed: int, text: str | None) -> str:
    """What follows the first ``parsed`` words: the rest of ``text`` exactly as typed (its
    quotes, backslashes, repeated spaces and newlines), or, without a text the words were
    split from, the remaining arguments (a platform's one free-text option, as typed)."""
    if text is None or text.split() != list(words):
        return " ".join(words[parsed:])
    at = 0
    for _ in range(parsed):  # a word follows each of these, so ``at`` stays in the text
        while text[at].isspace():
            at += 1
        while not text[at].isspace():
            at += 1
    while text[at].isspace():
        at += 1
    return text[at:]


def _fits(param: Param, word: str) -> bool:
    if param.kind is ParamKind.FLAG:
        return word.lower() == param.name
    return word.lower() in param.choices


def _stands_alone(param: Param, values: Mapping[str, Value]) -> bool:
    value = values.get(param.name)
    return bool(param.alone) and isinstance(value, str) and value.lower() == param.alone


def _given(needs: str, values: Mapping[str, Value]) -> bool:
    return not needs or needs in values


def parse_words(
    commands: Mapping[str, Subcommand], name: str, args: Sequence[str], text: str | None = None
) -> Any:
    """``/quiz NAME ARGS...`` as a typed command; an unknown NAME is ``None``. ``text``: the
    raw text ARGS were split from, when the platform has one (Slack, the console)."""
    subcommand = commands.get(name.strip().lower())
    if subcommand is None:
        return None
    return subcommand.parse([w for w in (a.strip() for a in args) if w], text)
