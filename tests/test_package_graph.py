"""The packages of ``bot/`` form a graph you can draw: no cycle between them, so each
feature stands on the ones below it and none of those imports it back (a feature that
needs something of a feature built on it types it by a protocol of its own).

A package is a folder of ``bot/``; each top-level module (``bot/store.py``,
``bot/composition.py``, ...) counts as a package of its own. ``python bench/structure.py``
prints the same figure ("package-level cycles in bot/").
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    """``rounds`` for ``bot.rounds.engine``, ``store`` for ``bot.store``."""
    return module.split(".")[1]


def imported(source: str) -> set[str]:
    """What a module imports, absolutely; ``from bot.x import y`` names ``bot.x.y`` too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def package_graph() -> dict[str, set[str]]:
    sources = {module_name(p): p for p in sorted((ROOT / "bot").rglob("*.py"))}
    modules = set(sources) - {"bot"}
    assert len(modules) > 100, "the walk did not see bot/'s modules"
    graph: dict[str, set[str]] = defaultdict(set)
    for name in modules:
        source = sources[name].read_text(encoding="utf-8")
        own = package_of(name)
        graph[own] |= {package_of(m) for m in imported(source) & modules} - {own}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_cycle_between_the_packages_of_bot() -> None:
    graph = package_graph()
    assert {"rounds", "learning", "kernel"} <= set(graph), "the graph misses packages"
    assert cycles(graph) == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_the_cycle_finder_sees_a_cycle(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert cycles(graph) == expected


def test_the_graph_sees_an_arrow_between_packages() -> None:
    assert "kernel" in package_graph()["rounds"]
