"""The console's output: cards as plain text in a transcript, charts as PNG files.

Lines in a round's thread are marked with the thread's name, lines in direct messages with
``[DM › member]``.
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from adapters.console.view import CONSOLE_CHANNEL
from adapters.printable import printable
from bot.kernel.render import Card, Image

BOT_NAME = "quizbot"
WRAP_WIDTH = 88


# The console shows no buttons: where a core card names one, it names the typed control
# instead. Each pattern is a core card's own wording (tests/console pins them all).
TYPED_CONTROLS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), typed)
    for pattern, typed in (
        (r"React (\S+) or press Reveal", r"React \1 (`:react \1`)"),
        (r"(\S+) on the question \(or press Reveal\)", r"\1 on the question (`:react \1`)"),
        (r"press Answer or type (`/quiz answer TEXT`)", r"type \1"),
        (r"press the question's Answer button or type", "type"),
        (r"(`/quiz answer TEXT`) or the Answer button of", r"\1 to"),
        (r"the buttons or (`/quiz grade)", r"\1"),
        (r"with the buttons above or (`/quiz grade)", r"with \1"),
        (r"Next question: the button, or", "Next question:"),
    )
)


def typed_controls(text: str) -> str:
    """``text`` with each mention of a button replaced by the console's typed control."""
    for pattern, typed in TYPED_CONTROLS:
        text = pattern.sub(typed, text)
    return text


def render_card(card: Card) -> list[str]:
    """A card as plain-text lines, long paragraphs wrapped (the console's renderer)."""
    lines: list[str] = [f"@{card.ping}"] if card.ping else []
    for line in typed_controls(card.plain_text()).splitlines():
        indent = "  " if line.startswith("• ") else ""
        # a word longer than a line (a link) stays whole on a line of its own
        wrapped = textwrap.wrap(line, WRAP_WIDTH, subsequent_indent=indent, break_long_words=False)
        lines.extend(wrapped or [""])
    return lines or [""]


@dataclass
class Transcript:
    """Writes what is said on the console, and the charts of the cards it shows.

    Charts go to ``charts_dir``; without one, to a temporary directory made for the first
    chart and removed by :meth:`close`."""

    out: TextIO
    charts_dir: Path | None = None
    thread_names: dict[str, str] = field(default_factory=dict)
    _chart_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _temporary: Path | None = None
    _closed: bool = False

    def where(self, thread: str | None, direct: str | None = None) -> str:
        channel = CONSOLE_CHANNEL.name
        if direct is not None:
            return f"[DM › {direct}]"
        if thread is None:
            return f"[{channel}]"
        return f"[{channel} › {self.thread_names.get(thread, 'thread')}]"

    def say(
        self, thread: str | None, speaker: str, lines: list[str], direct: str | None = None
    ) -> None:
        """Print what ``speaker`` said, one line each; control characters escaped, as
        everything the transcript prints (members' text reaches it as typed)."""
        where = printable(self.where(thread, direct))
        self.out.write(f"{where} {printable(speaker)}: {printable(lines[0])}\n")
        pad = " " * (len(where) + 1)
        for line in lines[1:]:
            self.out.write(f"{pad}  {printable(line)}\n" if line else "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        self.out.write(f"  ({printable(text)})\n")
        self.out.flush()

    def show(self, thread: str | None, speaker: str, card: Card, direct: str | None = None) -> None:
        """Print the card; its picture, if any, is written as a PNG file and its path noted."""
        self.say(thread, speaker, render_card(card), direct)
        if card.image is None:
            return
        if self._closed:
            self.note("chart not written: the console has stopped")
        else:
            self.note(f"chart: {self.write_chart(card.image)}")

    def tell(self, member: str, card: Card, direct: str | None = None) -> None:
        """Show ``card`` to ``member`` alone."""
        self.show(None, f"{BOT_NAME} → {member} (private)", card, direct)

    def write_chart(self, image: Image) -> Path:
        folder = self.charts_dir or self._temporary
        if folder is None:
            folder = self._temporary = Path(tempfile.mkdtemp(prefix="quizbot-charts-"))
        folder.mkdir(parents=True, exist_ok=True)
        # A kept --charts-dir holds earlier runs' charts, numbered from 1 as this run's are:
        # each file is created anew (never opened over another) under the next free number.
        while True:
            path = folder / f"{Path(image.filename).stem}-{next(self._chart_numbers)}.png"
            try:
                with path.open("xb") as chart:
                    chart.write(image.png)
            except FileExistsError:
                continue
            return path

    def close(self) -> None:
        """Remove the temporary charts directory, if one was made; --charts-dir stays."""
        self._closed = True
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None
