"""Each platform is a plugin: what is its own (settings, flags, doctor checks, factory) is in
its folder, the rest of quizbot reaches it through the one list of platforms."""

from __future__ import annotations

from pathlib import Path

from tests.test_boundaries import imported_modules

ROOT = Path(__file__).resolve().parents[1]


def test_storage_does_not_read_the_core_settings() -> None:
    """The store is opened from a database URL or path, whoever's settings name them."""
    readers = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "storage").rglob("*.py"))
        if "bot.settings" in imported_modules(path.read_text(encoding="utf-8"))
    ]
    assert readers == []
