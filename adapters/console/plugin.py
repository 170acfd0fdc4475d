"""The console as a plugin: its one setting, ``--charts-dir``, and its factory. It needs no
credentials; 'auto' runs it when no other platform has its tokens set."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from adapters.console.connector import ConsolePlatform
from adapters.console.terminal import stream_lines
from adapters.plugin import Flag, PlatformPlugin, PlatformSettings, Wiring

GREETING = "quizbot on the console, channel #practice. :help lists controls."


class ConsoleSettings(PlatformSettings):
    """The console's own settings."""

    charts_dir: Path | None = Field(
        default=None,
        description=(
            "Where the console writes chart PNGs (default: a new temporary directory,"
            " removed when quizbot stops)."
        ),
    )


def create_console(settings: ConsoleSettings, wiring: Wiring) -> ConsolePlatform:
    """The console reading the runtime's standard input: a terminal is prompted and
    greeted; piped input is a script whose lines are also printed, so the output reads as
    a transcript."""
    interactive = wiring.stdin.isatty()
    return ConsolePlatform(
        wiring.stdout,
        lines=stream_lines(wiring.stdin, prompt=interactive),
        echo=not interactive,
        charts_dir=settings.charts_dir,
        greeting=GREETING if interactive else None,
    )


CONSOLE = PlatformPlugin(
    name="console",
    title="the console",
    workspace="'local' on the console",
    settings=ConsoleSettings,
    build=create_console,
    flags=(
        Flag(
            ("--charts-dir",),
            "charts_dir",
            (
                "console: write chart PNGs here, never over an earlier run's (default: a"
                " temporary directory, removed at exit)"
            ),
            type=Path,
        ),
    ),
)
