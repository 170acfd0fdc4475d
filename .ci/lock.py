"""Keep the lock in step with pyproject.toml.

    python .ci/lock.py                         # after a dependency changed: re-lock, re-export
    python .ci/lock.py --upgrade               # the newest versions pyproject.toml allows
    python .ci/lock.py --upgrade-package NAME  # one package (any other `uv lock` option too)
    python .ci/lock.py --check                 # CI: fail if anything is out of step

`uv.lock` is the lock of record: every dependency, extra and group at an exact version with the
hash of each file, for Python 3.11 and newer on every platform. `requirements/runtime.txt` (what
deploy/Dockerfile installs) and `requirements/dev.txt` (what .ci/run installs) are exported from it
in pip's format, so `pip install --require-hashes --no-deps -r ...` installs them with pip alone.
Both exports carry the `build` group, setuptools, so quizbot itself then builds without build
isolation and nothing unpinned is fetched.

`--check` runs offline and resolves nothing while the lock still satisfies pyproject.toml, so it
gives the same answer on every machine and is not turned red by a new release upstream.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "uv.lock"
PYPROJECT = ROOT / "pyproject.toml"
UPDATE = "python .ci/lock.py"

# export file -> the extras it holds; each also holds the `build` group and not quizbot itself
EXPORTS: dict[str, list[str]] = {
    "requirements/runtime.txt": [],
    "requirements/dev.txt": ["dev"],
}


def header(name: str, extras: list[str]) -> str:
    what = "quizbot's dependencies" + "".join(f" with the {e} extra" for e in extras)
    return (
        f"# {what} and the build group (setuptools), exported from uv.lock:\n"
        f"# exact versions, every file's hash. Do not edit; after changing pyproject.toml run\n"
        f"#   {UPDATE}\n"
        "# Install: pip install --require-hashes --no-deps -r"
        f" {name}\n"
        "#          pip install --no-deps --no-build-isolation .\n"
    )


def find_uv() -> str:
    """The uv of the running Python (the dev extra installs it), else one on PATH."""
    try:
        from uv import find_uv_bin
    except ImportError:
        return "uv"
    return find_uv_bin()


def run(cmd: list[str], *, capture: bool = False) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, cwd=ROOT, text=True, capture_output=capture, check=False)
    except FileNotFoundError:
        sys.exit(
            f"lock: {cmd[0]} not found: install the dev extra (pip install -e '.[dev]') "
            "and run this with its Python"
        )


def fail(message: str) -> None:
    sys.exit(f"lock: {message}")


def locked_version(name: str) -> str | None:
    lock = tomllib.loads(LOCK.read_text(encoding="utf-8"))
    for package in lock.get("package", []):
        if package.get("name") == name:
            return str(package.get("version"))
    return None


def check_build_group() -> None:
    """The `build` group must name exactly what [build-system] requires."""
    pyproject = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    requires = pyproject["build-system"]["requires"]
    group = pyproject.get("dependency-groups", {}).get("build")
    if group != requires:
        fail(
            f"pyproject.toml: [dependency-groups] build = {group!r} differs from "
            f"[build-system] requires = {requires!r}; make them the same, then run {UPDATE}"
        )


def check_uv_version(uv: str) -> None:
    """The exports are written by the uv that uv.lock pins, the one CI installs."""
    out = run([uv, "--version"], capture=True).stdout.split()
    running = out[1] if len(out) > 1 else "?"
    pinned = locked_version("uv")
    if pinned is not None and running != pinned:
        fail(
            f"uv {running} runs here but uv.lock pins uv {pinned}, whose exports CI compares: "
            f"pip install uv=={pinned} (or the locked dev set, requirements/dev.txt), "
            f"then run {UPDATE} again"
        )


def export(uv: str, name: str, extras: list[str]) -> str:
    cmd = [uv, "export", "--frozen", "--format", "requirements.txt", "--no-header"]
    cmd += ["--no-emit-project", "--no-default-groups", "--group", "build"]
    for extra in extras:
        cmd += ["--extra", extra]
    done = run(cmd, capture=True)
    if done.returncode != 0:
        fail(f"uv export for {name} failed:\n{done.stderr}")
    return header(name, extras) + done.stdout


def main(argv: list[str]) -> int:
    check = argv[:1] == ["--check"]
    uv = find_uv()
    check_build_group()
    if check:
        done = run([uv, "lock", "--check", "--offline"], capture=True)
        if done.returncode != 0:
            print(f"uv lock --check --offline:\n{done.stderr}", file=sys.stderr)
            fail(
                "uv.lock does not match pyproject.toml (a dependency, extra, group or the "
                "version changed without re-locking; offline, uv's 'not found in the cache' "
                f"means the lock lacks a new requirement): run {UPDATE} and commit uv.lock "
                "and requirements/"
            )
    else:
        if run([uv, "lock", *argv]).returncode != 0:
            fail("uv lock failed (see above)")
    check_uv_version(uv)
    stale = []
    for name, extras in EXPORTS.items():
        path = ROOT / name
        want = export(uv, name, extras)
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have == want:
            continue
        if check:
            diff = difflib.unified_diff(
                have.splitlines(keepends=True),
                want.splitlines(keepends=True),
                f"{name} (committed)",
                f"{name} (from uv.lock)",
                n=1,
            )
            sys.stderr.writelines(list(diff)[:40])
            stale.append(name)
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_text(want, encoding="utf-8")
            print(f"wrote {name}")
    if stale:
        fail(f"{', '.join(stale)} out of step with uv.lock: run {UPDATE} and commit them")
    if check:
        print("uv.lock matches pyproject.toml; requirements/ match uv.lock")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
