"""The lock check (`.ci/lock.py --check`, run by CI) passes on the repository as committed and
fails when pyproject.toml, uv.lock and requirements/ drift apart. Each drift is made in a copy
of the four files, checked offline with an empty uv cache: nothing is fetched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uv", reason="uv comes with the dev extra (pip install -e '.[dev]')")

ROOT = Path(__file__).resolve().parent.parent
FILES = [
    "pyproject.toml",
    "uv.lock",
    ".ci/lock.py",
    "requirements/runtime.txt",
    "requirements/dev.txt",
]
RELOCK = "run python .ci/lock.py"


def check(root: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_NO_CONFIG": "1"}
    return subprocess.run(
        [sys.executable, str(root / ".ci" / "lock.py"), "--check"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, root / name)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_committed_lock_matches_pyproject(tmp_path: Path) -> None:
    done = check(ROOT, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "uv.lock matches pyproject.toml" in done.stdout


def test_a_copy_of_the_files_passes_as_it_is(copy: Path, tmp_path: Path) -> None:
    done = check(copy, tmp_path)
    assert done.returncode == 0, done.stderr


def test_a_dependency_added_without_relocking_fails(copy: Path, tmp_path: Path) -> None:
    edit(copy / "pyproject.toml", '    "tzdata>=2024.1",', '    "tzdata>=2024.1",\n    "rich>=13",')
    done = check(copy, tmp_path)
    assert done.returncode != 0
    assert "uv.lock does not match pyproject.toml" in done.stderr
    assert RELOCK in done.stderr


def test_an_extra_dependency_added_without_relocking_fails(copy: Path, tmp_path: Path) -> None:
    edit(copy / "pyproject.toml", '"asyncpg>=0.29,<0.33"]', '"asyncpg>=0.29,<0.33", "psycopg>=3"]')
    done = check(copy, tmp_path)
    assert done.returncode != 0
    assert "uv.lock does not match pyproject.toml" in done.stderr


def test_a_tightened_bound_without_relocking_fails(copy: Path, tmp_path: Path) -> None:
    edit(copy / "pyproject.toml", '"aiosqlite>=0.20,<1"', '"aiosqlite>=0.21,<1"')
    done = check(copy, tmp_path)
    assert done.returncode != 0
    assert "uv.lock does not match pyproject.toml" in done.stderr


def test_an_export_edited_by_hand_fails_with_the_difference(copy: Path, tmp_path: Path) -> None:
    runtime = copy / "requirements" / "runtime.txt"
    pin = next(line for line in runtime.read_text().splitlines() if line.startswith("pyyaml=="))
    edit(runtime, pin, "pyyaml==0.0.1 \\")
    done = check(copy, tmp_path)
    assert done.returncode != 0
    assert "-pyyaml==0.0.1" in done.stderr
    assert "requirements/runtime.txt out of step with uv.lock" in done.stderr
    assert RELOCK in done.stderr


def test_a_build_group_unlike_build_system_requires_fails(copy: Path, tmp_path: Path) -> None:
    edit(copy / "pyproject.toml", 'build = ["setuptools>=77"]', 'build = ["setuptools>=70"]')
    done = check(copy, tmp_path)
    assert done.returncode != 0
    assert "differs from [build-system] requires" in done.stderr
