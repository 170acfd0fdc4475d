"""The console writes chart PNGs to --charts-dir (default a temporary directory, removed when
the console stops) and prints their paths."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image as PilImage

from adapters.console.connector import ConsolePlatform
from adapters.console.render import Transcript
from adapters.console.view import CONSOLE_CHANNEL
from bot.kernel.events import Event
from bot.kernel.render import Card, Image, Response
from tests.console.test_console import run_console

SCRIPT = "/quiz now\n:as alice\nMy answer\n/quiz me\n"
CHART_CARD = Card(title="Weekly recap", image=Image(b"\x89PNG fake", "recap-2026-W49.png", "alt"))


async def handle_nothing(event: Event) -> Response | None:
    return None


def chart_paths(transcript: str) -> list[Path]:
    return [Path(p) for p in re.findall(r"\(chart: (.+\.png)\)", transcript)]


def test_quiz_me_writes_its_chart_to_the_charts_dir(tmp_path: Path) -> None:
    charts = tmp_path / "charts"
    result = run_console(SCRIPT, tmp_path / "q.db", "--charts-dir", str(charts))
    assert result.returncode == 0, result.stderr
    [path] = chart_paths(result.stdout)
    assert path.parent == charts
    with PilImage.open(io.BytesIO(path.read_bytes())) as image:
        assert image.format == "PNG" and image.size == (1000, 500)
    me = result.stdout[result.stdout.index("alice (private): alice in this channel") :]
    assert "Last 12 weeks: 1 answer on 1 day" in me  # the text is there beside the picture


def test_without_a_charts_dir_a_temporary_directory_is_used_and_removed_at_exit(
    tmp_path: Path,
) -> None:
    result = run_console(SCRIPT, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    [path] = chart_paths(result.stdout)
    assert path.parent.name.startswith("quizbot-charts-")
    assert not path.parent.exists()


async def test_the_temporary_charts_directory_lives_until_the_console_stops() -> None:
    out = io.StringIO()
    console = ConsolePlatform(out)
    await console.start(handle_nothing)
    await console.post(CONSOLE_CHANNEL, CHART_CARD, key="recap:1:2026-W49")
    [path] = chart_paths(out.getvalue())
    assert path.read_bytes() == b"\x89PNG fake"
    await console.stop()
    assert not path.parent.exists()


async def test_a_charts_dir_is_kept_when_the_console_stops(tmp_path: Path) -> None:
    console = ConsolePlatform(io.StringIO(), charts_dir=tmp_path)
    await console.start(handle_nothing)
    await console.post(CONSOLE_CHANNEL, CHART_CARD, key="recap:1:2026-W49")
    await console.stop()
    assert (tmp_path / "recap-2026-W49-1.png").read_bytes() == b"\x89PNG fake"


async def test_a_posted_card_with_a_picture_notes_the_file(tmp_path: Path) -> None:
    out = io.StringIO()
    console = ConsolePlatform(out, charts_dir=tmp_path)
    card = Card(title="Weekly recap", image=Image(b"\x89PNG fake", "recap-2026-W49.png", "alt"))
    await console.post(CONSOLE_CHANNEL, card, key="recap:1:2026-W49")
    assert f"(chart: {tmp_path / 'recap-2026-W49-1.png'})" in out.getvalue()
    assert (tmp_path / "recap-2026-W49-1.png").read_bytes() == b"\x89PNG fake"


def test_a_kept_charts_dir_keeps_every_runs_charts(tmp_path: Path) -> None:
    charts = tmp_path / "charts"
    first = Transcript(io.StringIO(), charts)
    written = first.write_chart(CHART_CARD.image or Image(b"", "x.png", ""))
    second = Transcript(io.StringIO(), charts)  # the next run, counting from 1 again
    later = second.write_chart(Image(b"\x89PNG later", "recap-2026-W49.png", "alt"))
    assert later != written
    assert written.read_bytes() == b"\x89PNG fake"
    assert later.read_bytes() == b"\x89PNG later"
    assert sorted(p.name for p in charts.iterdir()) == sorted([written.name, later.name])
