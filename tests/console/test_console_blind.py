"""Blind answers on the console: `/quiz answer`, its form, private lines, the reveal."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console import run_console

SCRIPT = """/quiz answer too early
/quiz config answers blind
/quiz now
:as alice
/quiz answer shard the KV cache by head
/quiz answer
answer: pad to multiples of 8
.
:as bob
typed in the thread
:as carol
/quiz answer carol's idea
:as you
/quiz reveal
:as bob
:react 👍 #3
/quiz answer too late
/quiz leaderboard all
"""


def test_blind_answers_are_private_lines_until_the_reveal_posts_them(tmp_path: Path) -> None:
    result = run_console(SCRIPT, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "quizbot → you (private): No quiz here yet\n              There is no quiz" in out
    assert "quizbot → alice (private): Answer saved (only you see it)" in out
    assert "quizbot → alice (private): Change your answer: type `field: text` lines" in out
    assert "quizbot → alice (private): Answer changed (only you see it)" in out
    assert "quizbot → bob (private): Blind mode" in out
    before_reveal, after_reveal = out.split("you: /quiz reveal")
    assert "'s answer" not in before_reveal  # nothing public before the reveal
    posts = [line for line in after_reveal.splitlines() if "quizbot: " in line]
    assert [p.split("quizbot: ")[1] for p in posts] == [
        "alice's answer",
        "carol's answer",
        "Sample answer outline",
    ]
    assert "(bob reacted 👍 to answer #3 by carol)" in after_reveal
    assert "Question #1 is already revealed, so answers are closed" in after_reveal
    assert "1. carol — 16 pts (1 answer)" in after_reveal  # 10 + 5 before the reveal + 1 vote
