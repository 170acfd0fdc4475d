"""Dependencies point one way: adapters → bot → questions, and storage implements bot's ports.

Check it by hand with: ``python -m pytest tests/test_boundaries.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLATFORM_LIBRARIES = ("discord", "slack_bolt", "slack_sdk", "aiohttp")
DATABASE_DRIVERS = ("aiosqlite", "sqlite3", "asyncpg")

# package → the top-level imports it must never make
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "bot": (*PLATFORM_LIBRARIES, *DATABASE_DRIVERS, "adapters", "storage"),
    "questions": (*PLATFORM_LIBRARIES, *DATABASE_DRIVERS, "adapters", "storage", "bot"),
    "storage": (*PLATFORM_LIBRARIES, "adapters"),
}


def imported_roots(source: str) -> set[str]:
    """The top-level packages a module's source imports, wherever the import stands."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def offending_imports(package: str) -> dict[str, list[str]]:
    offenders: dict[str, list[str]] = {}
    sources = sorted((ROOT / package).rglob("*.py"))
    assert len(sources) >= 5, f"the walk did not see {package}/'s modules"
    for path in sources:
        found = imported_roots(path.read_text(encoding="utf-8")) & set(FORBIDDEN[package])
        if found:
            offenders[str(path.relative_to(ROOT))] = sorted(found)
    return offenders


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package: str) -> None:
    assert offending_imports(package) == {}


def test_the_console_reads_nothing_but_the_core() -> None:
    """The console turns input into events and renders what it is given: it asks the
    service, never the store or the engine behind it."""
    reached = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "adapters" / "console").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("store", "engine")
    }
    assert reached == set()


# what the console may use of the core: the events it makes, the cards it renders, the
# ports it implements; never the service, the engine or the store behind them
CONSOLE_MAY_IMPORT = (
    "adapters.console",
    "bot.kernel.events",
    "bot.kernel.forms",
    "bot.kernel.platform",
    "bot.kernel.runtime",
    "bot.kernel.refs",
    "bot.kernel.render",
)


def test_the_console_imports_only_events_refs_cards_and_ports() -> None:
    imported = {
        f"{path.relative_to(ROOT)}: {node.module}"
        for path in (ROOT / "adapters" / "console").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.split(".")[0] in ("adapters", "bot", "questions", "storage")
        and not node.module.startswith(CONSOLE_MAY_IMPORT)
    }
    assert imported == set()


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [
        ("import discord\n", "discord"),
        ("from slack_sdk.errors import SlackApiError\n", "slack_sdk"),
        ("def f():\n    import aiosqlite\n", "aiosqlite"),
        ("from bot.kernel.models import Round\n", "bot"),
    ],
)
def test_the_import_walk_sees_what_the_rule_forbids(source: str, forbidden: str) -> None:
    assert forbidden in imported_roots(source)


def test_importing_every_core_module_loads_no_platform_or_driver() -> None:
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for package in ("bot", "questions")
        for p in (ROOT / package).rglob("*.py")
        if p.stem != "__init__"
    )
    forbidden = (*PLATFORM_LIBRARIES, "aiosqlite", "asyncpg")
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(r for r in {forbidden!r} if r in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
