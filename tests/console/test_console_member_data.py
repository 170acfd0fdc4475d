"""A member's own data on the console: `/quiz export me` and `/quiz export anki` write the
file and print its path; `/quiz forget me confirm` erases the member; `/quiz me` stays."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

from tests.console.test_console import run_console

SCRIPT = (
    "/quiz now\n:as alice\nMy answer\n/quiz export me\n"
    "/quiz forget me confirm\n/quiz export me\n/quiz me\n"
)


def written(transcript: str, folder: Path) -> list[Path]:
    """The exports written, oldest first (the transcript wraps a long path: read the folder)."""
    assert len(re.findall(r"It is\s+written\s+to\s", transcript)) == 2
    return sorted(folder.glob("alice-quizbot-data-*.zip"), key=lambda p: p.stat().st_mtime_ns)


def test_exports_are_written_on_disk_and_the_erasure_empties_them(tmp_path: Path) -> None:
    out = tmp_path / "files"
    result = run_console(SCRIPT, tmp_path / "q.db", "--charts-dir", str(out))
    assert result.returncode == 0, result.stderr

    before, after = written(result.stdout, out)
    assert before.parent == out and before.name.startswith("alice-quizbot-data-")
    assert after != before  # the second export keeps the first
    with zipfile.ZipFile(io.BytesIO(before.read_bytes())) as archive:
        assert [
            a["text"] for a in json.loads(archive.read("quizbot-data.json"))["tables"]["answers"]
        ] == ["My answer"]
    assert "Your quiz data is erased" in result.stdout
    with zipfile.ZipFile(io.BytesIO(after.read_bytes())) as archive:
        assert json.loads(archive.read("quizbot-data.json"))["tables"]["answers"] == []
    assert "alice in this channel" in result.stdout  # /quiz me is still the personal page
