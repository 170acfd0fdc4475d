"""`quizbot packs list | head -1`: the reader has gone before the listing ends, and the
command stops quietly (no BrokenPipeError traceback), as `ls | head` does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("unbuffered", [True, False], ids=["each-line-written", "written-at-exit"])
def test_a_listing_into_a_closed_pipe_ends_without_a_traceback(
    tmp_path: Path, unbuffered: bool
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (head) is gone before anything is written
    try:
        finished = subprocess.run(
            [sys.executable, "-m", "adapters.cli.main", "packs", "list"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert finished.stderr.decode() == ""
    assert finished.returncode == 141  # as a process killed by SIGPIPE, the shell's 128 + 13
