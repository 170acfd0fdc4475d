"""The README is the front page; the reference lives in docs/, one page per subject, each
in the site's navigation and linked from the front page."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FRONT_PAGE_LINES = 300


def navigation() -> list[str]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return [page for entry in config["nav"] for page in entry.values()]


def test_the_readme_is_a_front_page() -> None:
    assert len(README.splitlines()) <= FRONT_PAGE_LINES
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/quizbot run" in README
    assert ".venv/bin/pip install -e '.[dev]' && .venv/bin/python -m pytest" in README


def test_every_page_is_in_the_navigation_and_on_the_front_page() -> None:
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert sorted(navigation()) == pages
    linked = set(re.findall(r"\]\(docs/([a-z-]+\.md)", README))
    assert linked == set(pages)
