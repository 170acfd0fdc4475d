"""What a new platform must touch outside its own folder, read from the code.

A platform is a folder of ``adapters/`` with a ``connector.py``. A module outside the
platforms' folders that dispatches on them, naming two or more of them in its code (an
import of ``adapters.<name>``, a name such as ``slack_mode`` or ``DiscordSettings``, or a
string that is exactly a platform's name, such as ``"slack"``), is a list a new platform
joins. Docstrings, comments and prose in strings ("e.g. discord,slack") do not count. Two
files that are not code list the platforms too: the dependencies of ``pyproject.toml``
(each platform's library) and ``.env.example`` (every setting, which a test checks).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

CODE = ("bot", "adapters", "storage", "questions")


def platforms(root: Path) -> list[str]:
    return sorted(path.parent.name for path in (root / "adapters").glob("*/connector.py"))


def _words(name: str) -> set[str]:
    """``create_slack_platform`` and ``DiscordSettings`` as lower-case words."""
    return {w.lower() for w in re.split(r"[_.\W]+|(?<=[a-z])(?=[A-Z])", name) if w}


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def named_in_code(source: str, names: list[str]) -> set[str]:
    """The platforms of ``names`` that the code of ``source`` names."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        words: set[str] = set()
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words = {node.value.strip().lower()}
        elif isinstance(node, ast.Name):
            words = _words(node.id)
        elif isinstance(node, ast.Attribute):
            words = _words(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = _words(node.name)
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            words = _words(node.arg)
        elif isinstance(node, ast.alias):
            words = _words(node.name) | _words(node.asname or "")
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = _words(node.module)
        found |= words & set(names)
    return found


def _other_files(root: Path, names: list[str]) -> list[str]:
    found = []
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        dependencies = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"].get(
            "dependencies", []
        )
        libraries = {n for dep in dependencies for n in names if dep.lower().startswith(n)}
        if len(libraries) >= 2:
            found.append("pyproject.toml")
    example = root / ".env.example"
    if example.is_file():
        text = example.read_text(encoding="utf-8")
        if sum(f"QUIZBOT_{n.upper()}_" in text for n in names) >= 2:
            found.append(".env.example")
    return found


def outside_touches(root: Path) -> list[str]:
    """The files a new platform must touch outside ``adapters/<name>/`` (and its tests)."""
    names = platforms(root)
    folders = [root / "adapters" / name for name in names]
    lists = [
        str(path.relative_to(root))
        for package in CODE
        for path in sorted((root / package).rglob("*.py"))
        if not any(path.is_relative_to(folder) for folder in folders)
        and len(named_in_code(path.read_text(encoding="utf-8"), names)) >= 2
    ]
    return lists + _other_files(root, names)
