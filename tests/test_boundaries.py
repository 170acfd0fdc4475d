"""Dependencies point one way: adapters → bot → questions, and storage implements bot's ports;
inside bot/, features stand on the kernel and use each other only through public modules.

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


def imported_modules(source: str) -> set[str]:
    """The full names of the modules a module's source imports (absolute imports);
    ``from bot.x import y`` counts as ``bot.x.y`` too (``y`` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize(("backend", "other"), [("sqlite", "postgres"), ("postgres", "sqlite")])
def test_each_storage_backend_stands_alone(backend: str, other: str) -> None:
    """A backend's package imports nothing of the other's: what both need is in
    ``storage/sql/`` or a module of ``storage/`` itself."""
    sources = sorted((ROOT / "storage" / backend).rglob("*.py"))
    assert len(sources) >= 5, f"the walk did not see storage/{backend}/'s modules"
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in imported_modules(path.read_text(encoding="utf-8"))
            if name == f"storage.{other}" or name.startswith(f"storage.{other}.")
        )
        for path in sources
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_shared_sql_imports_neither_backend() -> None:
    for path in sorted((ROOT / "storage" / "sql").rglob("*.py")):
        names = imported_modules(path.read_text(encoding="utf-8"))
        assert not {
            n for n in names if n.split(".")[:2] in (["storage", "sqlite"], ["storage", "postgres"])
        }, path
        assert not imported_roots(path.read_text(encoding="utf-8")) & {*DATABASE_DRIVERS}, path


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
    "adapters.plugin",  # what it declares itself with as a platform (its settings, factory)
    "adapters.printable",
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
    forbidden = (*PLATFORM_LIBRARIES, *DATABASE_DRIVERS)
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(r for r in {forbidden!r} if r in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# Inside bot/: a shared kernel, one package per feature, and the service that wires them.
KERNEL = "bot.kernel"
FEATURES = sorted(
    p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and (p / "__init__.py").exists()
)
APP_MODULES = ("bot.service", "bot.inbound", "bot.channel_sync", "bot.settings", "bot.features")
# The machinery every feature plugs into: it imports the kernel and itself, never a feature
# (the composition root, bot/features.py, gives it what the features declare).
# (scheduling: what a schedule is, when it fires, the scheduler that fires it; a feature's
# face declares its schedules with it, and a channel's question slots are the rounds')
MACHINERY = ("outbox", "quiz_command", "scheduling")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def feature_of(module: str) -> str | None:
    """``practice`` for ``bot.practice.sessions``; None outside the feature packages."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "bot" and parts[1] in FEATURES and parts[1] != "kernel":
        return parts[1]
    return None


def internals_reached(source: str, importer: str) -> set[str]:
    """The other features' internal modules (named ``_*``) that ``source`` imports."""
    reached = set()
    for module in imported_modules(source):
        feature = feature_of(module)
        parts = module.split(".")
        if (
            feature
            and feature != feature_of(importer)
            and any(p.startswith("_") for p in parts[2:])
        ):
            reached.add(module)
    return reached


def test_the_kernel_imports_no_feature() -> None:
    reached = {
        f"{module_name(path)} -> {module}"
        for path in (ROOT / "bot" / "kernel").rglob("*.py")
        for module in imported_modules(path.read_text(encoding="utf-8"))
        if module.startswith("bot.") and not module.startswith(KERNEL)
    }
    assert len(list((ROOT / "bot" / "kernel").rglob("*.py"))) >= 10
    assert reached == set()


@pytest.mark.parametrize("package", ["bot", "adapters", "storage", "bench"])
def test_nothing_reaches_into_another_features_internals(package: str) -> None:
    """A feature's public API is its modules without a leading underscore; adapters,
    storage and the other features use only those."""
    reached = {
        f"{module_name(path)} -> {module}"
        for path in (ROOT / package).rglob("*.py")
        for module in internals_reached(path.read_text(encoding="utf-8"), module_name(path))
    }
    assert reached == set()


def test_features_are_given_what_they_use_and_never_reach_the_service() -> None:
    reached = {
        f"{module_name(path)} -> {module}"
        for feature in FEATURES
        if feature != "kernel"
        for path in (ROOT / "bot" / feature).rglob("*.py")
        for module in imported_modules(path.read_text(encoding="utf-8"))
        if module.startswith(APP_MODULES)
    }
    assert reached == set()


def test_every_feature_has_internal_modules_the_rule_can_see() -> None:
    """The rules above would pass on a tree they cannot see into."""
    assert {"rounds", "practice", "learning", "recaps"} <= set(FEATURES)
    assert list((ROOT / "bot" / "learning").glob("_*.py"))


@pytest.mark.parametrize(
    ("source", "importer", "reached"),
    [
        ("from bot.learning._cards import mastery_card\n", "bot.rounds.cards", True),
        ("from bot.learning import _cards\n", "adapters.slack.render", True),
        ("from bot.learning._cards import mastery_card\n", "bot.learning.commands", False),
        ("from bot.learning.service import LearningService\n", "bot.rounds.engine", False),
    ],
)
def test_the_internals_rule_sees_what_it_forbids(source: str, importer: str, reached: bool) -> None:
    assert bool(internals_reached(source, importer)) is reached


@pytest.mark.parametrize("package", MACHINERY)
def test_the_machinery_imports_no_feature(package: str) -> None:
    """The outbox keeps claims, retries, pacing and ordering, the command machinery parses
    and runs, the scheduler fires slots: each feature brings its performers, subcommands
    and schedules to them."""
    allowed = (KERNEL, f"bot.{package}")
    sources = list((ROOT / "bot" / package).rglob("*.py"))
    reached = {
        f"{module_name(path)} -> {module}"
        for path in sources
        for module in imported_modules(path.read_text(encoding="utf-8"))
        if module.startswith("bot.") and not module.startswith(allowed)
    }
    assert len(sources) >= 4, f"the walk did not see bot/{package}/'s modules"
    assert reached == set()


def test_the_features_face_type_imports_no_feature() -> None:
    """``bot/feature.py`` (what a feature declares) stands on the kernel and the machinery
    (commands, outbox, scheduler); only ``bot/features.py`` lists the features."""
    source = (ROOT / "bot" / "feature.py").read_text(encoding="utf-8")
    reached = {
        m
        for m in imported_modules(source)
        if m.startswith("bot.") and feature_of(m) not in (None, "kernel", *MACHINERY)
    }
    assert reached == set()
