"""A console form never records what the member did not mean: a line without a field name
fills a form of one field (`/quiz covered` takes `1 2 3` as the ticks), and in a form of
several fields it keeps the form open at `.` instead of submitting without it. A form is
its member's: while alice's form is open, bob's lines, commands and reactions are his own,
and bob cannot `:cancel` it."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console import run_console

COVERED = "/quiz now\n:as alice\nMy answer\n:react 💡\n/quiz covered\n1 2 3\n.\n/quiz grade\n"


def test_a_bare_line_in_a_form_of_one_field_is_that_field(tmp_path: Path) -> None:
    result = run_console(COVERED, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "(taken as covered: 1 2 3)" in out
    graded = out[out.index("alice: .") :]
    assert "3 of " in graded and "key points" in graded
    assert "0 of " not in graded and "graded: missed" not in graded


def test_a_line_of_no_field_keeps_a_form_of_several_fields_open(tmp_path: Path) -> None:
    script = (
        "/quiz now\n:as alice\n/quiz suggest\nHow large is the KV cache?\n.\n"
        "topic: kv-cache\nquestion: How large is the KV cache?\n"
        "outline: 2 x layers x heads x dim x 2 bytes.\n.\n"
    )
    result = run_console(script, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first_dot = out[out.index("alice: .") :]
    assert (
        "(not submitted: 'How large is the KV cache?' belongs to no field: type it as"
        " `field: text`, or `.` again to submit without it)"
    ) in first_dot
    assert first_dot.index("not submitted") < first_dot.index("Suggestion #s1 waits")


def test_another_members_lines_are_their_own_while_a_form_is_open(tmp_path: Path) -> None:
    script = (
        "/quiz now\n:as alice\n/quiz suggest\ntopic: kv-cache\n"
        ":as bob\nMy answer as bob\n/quiz me\n:react 💡\n:cancel\n"
        ":as alice\nquestion: How large is the KV cache?\n"
        "outline: 2 x layers x heads x dim x 2 bytes.\n.\n"
    )
    result = run_console(script, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "bob: My answer as bob" in out and "Question #1" in out.split("bob: My answer")[0][-60:]
    assert "quizbot → bob (private): bob in this channel" in out  # his /quiz me ran
    assert "Sample answer outline" in out  # his 💡 revealed it
    assert "(no form of yours is open)" in out  # bob's :cancel left alice's form alone
    assert "form dropped" not in out
    assert "(alice's form 'Suggest a question' is open: lines fill it in)" in out
    assert "quizbot → alice (private): Thanks for the suggestion" in out
