"""The core must not depend on a platform library or the storage driver."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("discord", "slack_bolt", "slack_sdk", "aiosqlite", "aiohttp")
BOT = Path(__file__).resolve().parents[1] / "bot"


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_bot_sources_import_no_platform_or_driver() -> None:
    offenders = {
        str(path.relative_to(BOT.parent)): sorted(_imported_roots(path) & set(FORBIDDEN))
        for path in BOT.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) >= 5  # the walk really saw the core's modules


def test_importing_every_core_module_loads_no_platform_or_driver() -> None:
    modules = sorted(f"bot.{p.stem}" for p in BOT.glob("*.py") if p.stem != "__init__")
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(r for r in {FORBIDDEN!r} if r in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
