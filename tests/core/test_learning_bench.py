"""bench/learning.py stays runnable: a tiny simulation through the real service prints the
summary line in its documented form (the bench's figures are not asserted here)."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "learning.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learning_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def test_a_tiny_run_prints_the_documented_last_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    await load_bench().main(
        argparse.Namespace(seeds=1, first_seed=1, learners=2, days=8, questions=6)
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    number = r"\d\.\d{3}"
    ratio = r"\d+\.\d{2}"
    assert re.fullmatch(
        rf"learning: shipped {number} channel-only {number} round-robin {number} "
        rf"due-first {number} vs-channel {ratio} vs-round-robin {ratio}",
        last,
    ), last
