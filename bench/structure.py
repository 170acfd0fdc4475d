"""The shape of the code, from its own imports and class definitions.

Prints, for the packages of the repository: modules per folder and the largest module,
lines per package, the largest module and those over 500 lines, the package-level cycles
of ``bot/`` (strongly connected parts, mutual pairs), the constructors taking more than 8
parameters, the import arrows between modules inside ``bot/`` (and how many layers
they make), how many classes of the PostgreSQL backend inherit (directly or not) from a
class of the SQLite backend, the MRO length of each store class, and the files a new
platform must touch outside its folder (``bench/new_platform.py`` says how they are
found). Run it before and after a restructuring: ``python bench/structure.py`` measures the
working tree, ``python bench/structure.py --rev REV`` a commit (e.g. the one before the
restructuring) in the same run.
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tarfile
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

from new_platform import outside_touches

PACKAGES = ("bot", "adapters", "questions", "storage")
FILES = ("pyproject.toml", ".env.example")  # read too: what lists the platforms besides code


def modules(root: Path, package: str) -> Iterator[Path]:
    yield from sorted((root / package).rglob("*.py"))


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(tree: ast.Module, own: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``tree`` imports: ``from bot.rounds import cards`` is
    an arrow to ``bot.rounds.cards``, not also to the package ``bot.rounds``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = own.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return found & known


def layers(edges: dict[str, set[str]]) -> int:
    """The longest chain of imports (strongly connected parts counted as one step each)."""
    depth: dict[str, int] = {}
    visiting: set[str] = set()

    def walk(node: str) -> int:
        if node in depth:
            return depth[node]
        if node in visiting:  # an import cycle: do not count around it
            return 0
        visiting.add(node)
        depth[node] = 1 + max((walk(n) for n in edges.get(node, ())), default=0)
        visiting.discard(node)
        return depth[node]

    return max((walk(n) for n in edges), default=0)


def _backend(root: Path, path: Path) -> str | None:
    """Which backend a storage module belongs to: its package (``storage/sqlite/``,
    ``storage/postgres/``) or, in the flat layout before them, its name."""
    parts = path.relative_to(root / "storage").parts
    name = parts[0] if len(parts) > 1 else path.stem
    for backend in ("sqlite", "postgres"):
        if name == backend or name.startswith(backend + "_"):
            return backend
    return None


def storage_classes(root: Path) -> dict[str, tuple[str | None, list[str]]]:
    """Each class of ``storage/`` by name: its backend and the names of its bases."""
    found: dict[str, tuple[str | None, list[str]]] = {}
    for path in modules(root, "storage"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                ]
                found[node.name] = (_backend(root, path), bases)
    return found


def ancestors(classes: dict[str, tuple[str | None, list[str]]], name: str) -> list[str]:
    """The storage classes ``name`` inherits from, directly or not (its MRO's, less object)."""
    seen: list[str] = []
    pending = list(classes.get(name, (None, []))[1])
    while pending:
        base = pending.pop(0)
        if base in classes and base not in seen:
            seen.append(base)
            pending += classes[base][1]
    return seen


def cross_backend_inheritance(root: Path) -> tuple[int, int]:
    """(PostgreSQL classes with a SQLite class among their ancestors, all PostgreSQL classes)."""
    classes = storage_classes(root)
    postgres = [name for name, (backend, _) in classes.items() if backend == "postgres"]
    inheriting = sum(
        any(classes[base][0] == "sqlite" for base in ancestors(classes, name)) for name in postgres
    )
    return inheriting, len(postgres)


def store_mro_lengths(root: Path) -> dict[str, int]:
    """The MRO length of each store class (itself, its storage ancestors and ``object``)."""
    classes = storage_classes(root)
    return {
        name: len(ancestors(classes, name)) + 2
        for name in ("SqliteStore", "PostgresStore")
        if name in classes
    }


def feature_arrows(edges: dict[str, set[str]]) -> int:
    """Arrows between different folders of ``bot/`` (its top level counts as one)."""

    def folder(module: str) -> str:
        parts = module.split(".")
        return parts[1] if len(parts) > 2 else "(top)"

    return len(
        {(folder(a), folder(b)) for a, ts in edges.items() for b in ts}
        - {(f, f) for f in map(folder, edges)}
    )


def package_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Arrows between the packages (folders) of ``bot/``; its top-level modules each count
    as a package of their own."""

    def package(module: str) -> str:
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else module

    graph: dict[str, set[str]] = defaultdict(set)
    for source, targets in edges.items():
        graph[package(source)] |= {package(t) for t in targets} - {package(source)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan), largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found, key=len, reverse=True)


def mutual_pairs(graph: dict[str, set[str]]) -> int:
    return sum(1 for a, ts in graph.items() for b in ts if a < b and a in graph.get(b, ()))


def wide_constructors(root: Path, over: int = 8) -> list[tuple[int, str]]:
    """Classes whose ``__init__`` takes more than ``over`` parameters (self not counted)."""
    found: list[tuple[int, str]] = []
    for package in PACKAGES:
        for path in modules(root, package):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        a = item.args
                        count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) - 1
                        if count > over:
                            found.append((count, f"{module_name(root, path)}.{node.name}"))
    return sorted(found, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parents[1])
    parser.add_argument("--rev", help="measure this git commit of --root instead of its tree")
    options = parser.parse_args()
    if options.rev is None:
        report(options.root)
        return
    archive = subprocess.run(
        ["git", "-C", str(options.root), "archive", options.rev, *PACKAGES, *FILES],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory() as scratch:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(scratch, filter="data")
        print(f"at {options.rev}:")
        report(Path(scratch))


def report(root: Path) -> None:
    print("modules per folder (excluding __init__.py), lines, largest module")
    lines_per_package: Counter[str] = Counter()
    for package in PACKAGES:
        per_folder: dict[Path, list[tuple[int, Path]]] = defaultdict(list)
        for path in modules(root, package):
            count = len(path.read_text(encoding="utf-8").splitlines())
            lines_per_package[package] += count
            if path.name != "__init__.py":
                per_folder[path.parent].append((count, path))
        for folder, files in sorted(per_folder.items()):
            biggest, biggest_path = max(files)
            print(
                f"  {str(folder.relative_to(root)) + '/':28} {len(files):3} modules "
                f"{sum(n for n, _ in files):6} lines   largest {biggest_path.name} ({biggest})"
            )
    print("lines per package: " + ", ".join(f"{p} {n}" for p, n in lines_per_package.items()))
    sizes = sorted(
        (len(path.read_text(encoding="utf-8").splitlines()), str(path.relative_to(root)))
        for package in PACKAGES
        for path in modules(root, package)
    )
    print(f"largest module: {sizes[-1][1]} ({sizes[-1][0]} lines)")
    over = [f"{name} ({n})" for n, name in reversed(sizes) if n > 500]
    print(f"modules over 500 lines: {len(over)}" + (": " + ", ".join(over) if over else ""))

    names = {module_name(root, p): p for p in modules(root, "bot")}
    edges: dict[str, set[str]] = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = imported_modules(tree, name, path.name == "__init__.py", set(names))
        edges[name] = targets - {name}
    arrows = sum(len(t) for t in edges.values())
    print(f"import arrows between bot/ modules: {arrows} over {layers(edges)} layers")
    print(f"arrows between bot/ folders: {feature_arrows(edges)}")
    graph = package_graph(edges)
    parts = cycles(graph)
    print(
        f"package-level cycles in bot/: {len(parts)} strongly connected part(s),"
        f" {mutual_pairs(graph)} mutual pairs"
        + (f"; the largest holds {len(parts[0])}: {', '.join(parts[0])}" if parts else "")
    )
    wide = wide_constructors(root)
    print(
        f"constructors over 8 parameters: {len(wide)}"
        + (": " + ", ".join(f"{name} ({n})" for n, name in wide) if wide else "")
    )
    inheriting, total = cross_backend_inheritance(root)
    print(f"PostgreSQL classes inheriting from a SQLite class: {inheriting} of {total}")
    lengths = store_mro_lengths(root)
    print("store classes' MRO length: " + ", ".join(f"{n} {k}" for n, k in lengths.items()))
    touched = outside_touches(root)
    print(f"files a new platform touches outside its folder: {len(touched)} ({', '.join(touched)})")


if __name__ == "__main__":
    main()
