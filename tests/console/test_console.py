"""The console platform: `quizbot run` reading a script on stdin and printing a transcript."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = "/quiz now\n:as alice\nMy answer\n:react 💡\n:as bob\nLate answer\n/quiz leaderboard\n"


def run_console(script: str, db: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli.main", "run", "--db", str(db), *extra],
        input=script,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def test_the_readme_example_runs_a_whole_round(tmp_path: Path) -> None:
    result = run_console(EXAMPLE, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    thread = next(line for line in lines if "opened the thread" in line)
    assert "Question #1 ·" in thread
    question_at = next(
        i for i, line in enumerate(lines) if line.startswith("[#practice] quizbot: Question #1")
    )
    answer_at = next(i for i, line in enumerate(lines) if line.endswith("alice: My answer"))
    follow_ups_at = next(
        i for i, line in enumerate(lines) if "quizbot: Follow-up questions" in line
    )
    outline_at = next(i for i, line in enumerate(lines) if "quizbot: Sample answer outline" in line)
    late_at = next(i for i, line in enumerate(lines) if line.endswith("bob: Late answer"))
    assert question_at < answer_at < follow_ups_at < outline_at < late_at
    # answers and the bot's thread messages are marked as in the thread, the question is not
    assert lines[answer_at].startswith("[#practice › Question #1")
    assert lines[outline_at].startswith("[#practice › Question #1")
    board = lines[next(i for i, line in enumerate(lines) if "Leaderboard" in line) :]
    assert "quizbot → bob (private): Leaderboard — this week" in board[0]
    assert board[1].strip() == "1. alice — 15 pts (1 answer)"
    assert board[2].strip() == "2. bob — 10 pts (1 answer)"
    assert "Traceback" not in result.stderr


def test_state_survives_a_restart_on_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    assert run_console("/quiz now\n:as alice\nanswer\n", db).returncode == 0
    second = run_console(":as carol\nsecond run answer\n/quiz leaderboard all\n", db)
    assert second.returncode == 0, second.stderr
    assert "1. alice — 15 pts" in second.stdout
    assert "2. carol — 15 pts" in second.stdout


def test_a_round_posted_after_a_restart_takes_answers_and_reveals(tmp_path: Path) -> None:
    # the bot's message ids must not repeat across runs: the second run's question is not
    # the first run's closed one
    db = tmp_path / "q.db"
    assert run_console("/quiz now\n/quiz skip\n", db).returncode == 0
    second = run_console("/quiz now\n:as alice\nanswer\n:react 💡\n/quiz leaderboard all\n", db)
    assert second.returncode == 0, second.stderr
    assert "Question #2" in second.stdout
    assert "quizbot: Sample answer outline" in second.stdout
    assert "1. alice — 15 pts" in second.stdout


def test_controls_and_bad_input_never_crash(tmp_path: Path) -> None:
    script = "\n".join(
        [
            "an answer before any round",
            ":react 💡",
            ":as",
            ":as bob superuser",
            ":bogus",
            "/quiz leaderboard forever",
            '/quiz now "unterminated',
            "/quiz now",
            ":react 👍 #3",
            ":react 👍 #x",
            ":react 👍 #¹",
            ":as dana admin",
            "/quiz skip",
            ":quit",
            "/quiz now",
        ]
    )
    result = run_console(script + "\n", tmp_path / "q.db")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "no round is open: an admin can post one with /quiz now" in out
    assert "use :as NAME or :as NAME admin" in out
    assert "unknown control ':bogus'" in out
    assert "Use: /quiz leaderboard [week|month|all] [public]" in out
    assert re.search(r"Question #1 · [a-z0-9-]+ has 0 answer\(s\)", out)  # topics: fp8 too
    assert "use :react EMOJI or :react EMOJI #N" in out
    assert "you are now dana, an admin" in out
    assert "Question #1 is closed." in out
    assert "Question #2" not in out  # nothing after :quit is read
    assert "Traceback" not in result.stderr


def test_input_that_is_not_utf8_is_answered_and_the_bot_exits(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")}
    env["PYTHONIOENCODING"] = "utf-8:strict"  # stdin decodes strictly, as on a UTF-8 terminal
    result = subprocess.run(
        [sys.executable, "-m", "adapters.cli.main", "run", "--db", str(tmp_path / "q.db")],
        input=b"/quiz now \xff\xfe\n/quiz leaderboard\n",
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, result.stderr
    assert "Unknown topic '\ufffd\ufffd'" in out  # the bad bytes, replaced, reach the grammar
    assert "Leaderboard" in out  # the line after the bad one is still read
    assert b"Traceback" not in result.stderr
