"""docs/architecture.md lists every package of bot/ (its table "The packages of `bot/`")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_architecture_page_lists_every_package_of_bot() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+)/` \|", page, flags=re.MULTILINE))
    packages = {
        p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    assert len(packages) >= 10, "the walk did not see bot/'s packages"
    assert packages - listed == set(), "packages the page does not list"
    assert listed - packages == set(), "the page lists packages that are gone"
