"""What a platform plugs into quizbot with: one :class:`PlatformPlugin` value in its own
folder (``adapters/<name>/plugin.py``), listed once in :mod:`adapters.platforms`.

errbot's backend and its ``.plug`` file, typed: the platform's own settings (read as the
core's are, from ``QUIZBOT_<NAME>_*``; each one shown with a comment in the folder's
``settings.env.example``, which a test checks), the ``quizbot run`` flags that set some of them, the
settings checks ``quizbot run`` and ``quizbot doctor`` make, the doctor's checks of its
credentials, its own ``quizbot <name> ...`` commands, and the factory that builds its
``Platform`` (and ``Connector``). The runtime, the CLI and the doctor loop over the list
and name no platform. A plugin module imports no platform library: its factory and its
doctor checks import what they need when called.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from pydantic import SecretStr

from adapters.checks import Check
from bot.kernel.platform import Platform
from bot.kernel.runtime import Connector
from bot.settings import QuizbotSettings, SettingsError

if TYPE_CHECKING:
    from typing import TextIO

    from storage.database import AnyStore, Database

S = TypeVar("S", bound=QuizbotSettings)


class PlatformSettings(QuizbotSettings):
    """A platform's own settings. A field is named as its environment variable without
    ``QUIZBOT_`` (``slack_mode``: ``QUIZBOT_SLACK_MODE``, and ``slack_mode`` in the TOML
    file), so a platform's settings are named after it."""


class PlatformConnector(Platform, Connector, Protocol):
    """What a platform's factory builds: the core's ``Platform`` (what it sends) and the
    runtime's ``Connector`` (its life cycle, what it receives)."""


class SettingsProblem(SettingsError):
    """A platform's setting that cannot work, with what to do about it (the doctor's fix)."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.fix = fix


@dataclass(frozen=True, slots=True)
class Flag:
    """A ``quizbot run`` flag that sets one of the platform's settings (its ``dest``)."""

    names: tuple[str, ...]
    setting: str
    help: str
    type: Callable[[str], Any] = str
    const: str | None = None  # a flag without a value, which sets the setting to this

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        if self.const is not None:
            parser.add_argument(
                *self.names,
                action="store_const",
                const=self.const,
                dest=self.setting,
                help=self.help,
            )
        else:
            parser.add_argument(*self.names, type=self.type, dest=self.setting, help=self.help)


@dataclass(frozen=True, slots=True)
class Wiring:
    """What the runtime hands a platform's factory."""

    store: AnyStore
    topics: Callable[[], Sequence[str]]  # the catalog's topics, for completion
    stdin: TextIO
    stdout: TextIO


@dataclass(frozen=True, slots=True)
class DoctorContext:
    """What the doctor knows when it checks a platform."""

    config_ok: bool  # the settings passed their check
    database: Database | None  # the configured database, when it could be read
    # the rows of a table of a database, read without writing ([] without the table);
    # raises QuizError saying why it cannot be read
    read_table: Callable[[Database, str, str], Awaitable[list[tuple[Any, ...]]]]


def _never(settings: Any) -> bool:
    return False


def _nothing_required(settings: Any) -> tuple[str, ...]:
    return ()


def _nothing_to_check(settings: Any, running: bool) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class PlatformPlugin(Generic[S]):
    """One platform, as the runtime, the CLI and the doctor see it."""

    name: str  # in --platform and QUIZBOT_PLATFORM, and the platform of its references
    title: str  # in sentences: "Slack", "the console"
    workspace: str  # what identifies a workspace there, for the CLI's help ("Slack team id")
    settings: type[S]
    build: Callable[[S, Wiring], PlatformConnector]
    # 'auto' runs it: its credentials are set
    configured: Callable[[S], bool] = _never
    # the settings it needs as its other settings make it run; SettingsProblem when they
    # contradict each other
    required: Callable[[S], tuple[str, ...]] = _nothing_required
    # the rest of its settings checked (``running``: it is one of the platforms to run;
    # a setting only it reads is refused otherwise); SettingsProblem for a wrong one; what
    # the doctor adds to its config line
    check: Callable[[S, bool], str] = _nothing_to_check
    doctor: Callable[[S, DoctorContext], Awaitable[list[Check]]] | None = None
    flags: tuple[Flag, ...] = ()
    cli_commands: Callable[[Any], None] | None = None  # adds its `quizbot <name> ...` commands

    def read(self, config: Any = None, *, also_known: Iterable[str] = (), **flags: Any) -> S:
        """Its settings, from the environment, .env and the TOML file, then its flags."""
        from bot.settings import read_settings

        given = {flag.setting: flags.get(flag.setting) for flag in self.flags}
        return read_settings(self.settings, config, also_known=tuple(also_known), **given)


def require(settings: QuizbotSettings, *names: str) -> None:
    """Raise a SettingsError naming each of the settings ``names`` that is not set."""
    missing = [f"QUIZBOT_{n.upper()}" for n in names if getattr(settings, n) in (None, "")]
    if missing:
        raise SettingsError("missing setting: set " + " and ".join(missing))


def token_problem(token: str) -> str | None:
    """Why a platform token cannot be right (never quoting it), or None. Tokens are one
    line of printable characters without spaces; a pasted or file-read token may carry a
    line break."""
    for char in token:
        if char in "\r\n":
            found = "a line break"
        elif char.isspace():
            found = "a space"
        elif not char.isprintable():
            found = "a control character"
        else:
            continue
        return (
            f"malformed: the token holds {found}; a token is one line without spaces:"
            " copy it again from the platform's settings"
        )
    return None


def one_line_token(value: SecretStr | None) -> SecretStr | None:
    """A token setting's validator: a token is sent in an HTTP header, where aiohttp refuses
    a line break as header injection (a traceback at the first request, which doctor took
    for a network failure)."""
    if value is not None and (problem := token_problem(value.get_secret_value())):
        raise ValueError(problem)
    return value
