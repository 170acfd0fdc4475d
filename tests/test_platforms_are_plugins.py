"""Each platform is a plugin: what is its own (settings, flags, doctor checks, factory) is in
its folder, the rest of quizbot reaches it through the one list of platforms."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from tests.test_boundaries import imported_modules

ROOT = Path(__file__).resolve().parents[1]


def test_storage_does_not_read_the_core_settings() -> None:
    """The store is opened from a database URL or path, whoever's settings name them."""
    readers = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "storage").rglob("*.py"))
        if "bot.settings" in imported_modules(path.read_text(encoding="utf-8"))
    ]
    assert readers == []


PLATFORM_FOLDERS = sorted(
    path.parent.name for path in (ROOT / "adapters").glob("*/connector.py")
)  # a platform's folder holds its connector
# the console is also the runtime's own terminal: it reads its input and lets script time pass
ALSO_IMPORTED_BY = {"console": {"adapters/ops/runtime.py"}}


def test_every_platform_folder_is_one_line_of_the_list() -> None:
    from adapters.platforms import PLATFORMS

    assert len(PLATFORM_FOLDERS) >= 3, "the walk did not see the platforms' folders"
    assert sorted(plugin.name for plugin in PLATFORMS) == PLATFORM_FOLDERS
    for plugin in PLATFORMS:  # declared in its own folder
        assert plugin.settings.__module__.startswith(f"adapters.{plugin.name}."), plugin.name


def test_the_core_settings_hold_no_platforms_setting() -> None:
    from bot.settings import Settings

    owned = [
        field
        for field in Settings.model_fields
        if any(field.startswith(f"{name}_") for name in PLATFORM_FOLDERS)
    ]
    assert owned == []


def test_only_the_list_imports_a_platform_from_outside_its_folder() -> None:
    """The runtime, the CLI and the doctor reach a platform through the list; a platform
    added is a folder and a line, nothing else of quizbot changes."""
    for name in PLATFORM_FOLDERS:
        importers = {
            str(path.relative_to(ROOT))
            for package in ("bot", "adapters", "storage", "questions")
            for path in sorted((ROOT / package).rglob("*.py"))
            if not path.is_relative_to(ROOT / "adapters" / name)
            and any(
                module == f"adapters.{name}" or module.startswith(f"adapters.{name}.")
                for module in imported_modules(path.read_text(encoding="utf-8"))
            )
        }
        assert importers == {"adapters/platforms.py", *ALSO_IMPORTED_BY.get(name, ())}, name


PLATFORM_LIBRARIES = ("discord", "slack_bolt", "slack_sdk")


def test_a_plugin_and_its_settings_load_no_platform_library() -> None:
    """Every command of the CLI reads the list: declaring a platform costs no import of its
    library (its factory and doctor checks import it when called)."""
    script = (
        "import sys, adapters.platforms; "
        f"print(sorted(m for m in {PLATFORM_LIBRARIES!r} if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    assert loaded == "[]"


LONGEST_MODULE = 500  # lines


def test_no_module_of_adapters_is_over_500_lines() -> None:
    """A platform is modules of one role each (connector: life cycle and outbound;
    listeners or inbound: what comes in; factory, settings, doctor, plugin)."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "adapters").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert long == {}


def test_a_new_platform_touches_only_the_list_and_its_library() -> None:
    """What ``bench/structure.py`` counts: the files that list the platforms outside their
    folders. A platform's settings example (``settings.env.example``) and its mention of a
    group of members (``/quiz config ping``) are in its folder."""
    spec = importlib.util.spec_from_file_location(
        "new_platform", ROOT / "bench" / "new_platform.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    touched = set(bench.outside_touches(ROOT))
    assert "adapters/platforms.py" in touched  # the count sees a list where there is one
    assert touched <= {"adapters/platforms.py", "pyproject.toml"}  # its line, its library
