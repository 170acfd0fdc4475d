"""The console takes emoji short codes (`:+1:`, `:unicorn_face:`) for reactions and the
reveal emoji; the vote emoji and two emoji are refused as the reveal emoji, with why."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console import run_console

SCRIPT = """/quiz config reveal-emoji 👍
/quiz config reveal-emoji :+1::skin-tone-2:
/quiz config reveal-emoji 💡💡
/quiz config reveal-emoji :unicorn_face:
/quiz now
:as alice
my answer
:as bob
:react :+1: #1
:react 🦄
/quiz leaderboard all
"""


def test_short_codes_vote_and_reveal_and_bad_reveal_emoji_are_refused(tmp_path: Path) -> None:
    result = run_console(SCRIPT, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("is the vote emoji: members react with it to vote for answers") == 2
    assert "'💡💡' is more than one emoji: pick exactly one." in out
    assert "React 🦄 on a question to reveal its outline." in out
    assert "quizbot: Sample answer outline" in out  # :react 🦄 revealed
    assert "1. alice — 16 pts (1 answer)" in out  # 10 + 5 before the reveal + bob's vote
