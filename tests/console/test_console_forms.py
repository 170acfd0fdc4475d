"""The console's multi-line form: `/quiz suggest`, field lines, `.` to submit (README)."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console import run_console

SUGGESTION = """/quiz now
:as alice
/quiz suggest
topic: KV Cache
question: How large is the KV cache of a 70B model at 32k context?
outline: 2 x layers x KV heads x head dim x 2 bytes per token.
With GQA, about 0.3 MB per token.
follow_ups: What does paged attention change?
key_points: the per-token formula
.
topic: kv-cache-sizing
key_points: the per-token formula
GQA divides it by the group size
linear in the context length
.
:as you
/quiz review approve s1
/quiz now kv-cache-sizing
"""


def test_a_suggestion_typed_on_the_console_is_fixed_and_approved(tmp_path: Path) -> None:
    result = run_console(SUGGESTION, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    refusal = out[out.index("Your suggestion was not saved") :]
    assert "topic: must be lowercase letters and digits" in refusal
    assert "key_points: give 3 to 7 key points, not 1" in refusal
    # the refusal repeats what was typed, and the form stays open with it
    assert "With GQA, about 0.3 MB per token." in refusal
    assert "the form is still open" in refusal
    assert "Suggestion #s1 waits for an admin's review" in out
    assert "Your question was approved" in out
    last_question = out[out.rindex("quizbot: Question #2") :]
    assert "How large is the KV cache of a 70B model at 32k context?" in last_question


def test_cancel_drops_the_form(tmp_path: Path) -> None:
    result = run_console(
        "/quiz now\n/quiz suggest\ntopic: x\n:cancel\n/quiz review\n", tmp_path / "q.db"
    )
    assert result.returncode == 0, result.stderr
    assert "form dropped" in result.stdout
    assert "Nothing to review" in result.stdout
