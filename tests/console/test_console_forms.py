"""The console's multi-line form: `/quiz suggest`, field lines, `.` to submit (README)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.loader import load_catalog
from tests.conftest import START
from tests.console.script import run_script
from tests.console.test_console import run_console
from tests.fakes import FakeClock
from tests.harness import running_service

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


def test_controls_still_work_inside_a_form(tmp_path: Path) -> None:
    script = (
        "/quiz now\n:as alice\n/quiz suggest\ntopic: kv-cache\n:help\n:as bob\n:as alice\n"
        "question: How large is the KV cache?\noutline: 2 x layers x heads x dim x 2 bytes.\n"
        ".\n:quit\n/quiz help\n"
    )
    result = run_console(script, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "(the form 'Suggest a question' is open:)" in out  # :help, not a field's text
    assert "(.                    inside a form: submit it)" in out
    assert "(you are now bob, a member)" in out
    assert "(alice's form 'Suggest a question' is open: lines fill it in)" in out
    assert "Suggestion #s1 waits for an admin's review" in out
    assert "quizbot → alice (private): Thanks for the suggestion" in out  # the opener's form
    assert "quizbot commands" not in out  # :quit ended the session


async def test_the_prompt_shows_that_a_form_is_open(tmp_path: Path) -> None:
    prompts: list[str] = []

    async def read(prompt: Callable[[], str]) -> AsyncIterator[str]:
        for line in ("/quiz now", "/quiz suggest", "topic: kv-cache", ":cancel", "/quiz help"):
            prompts.append(prompt())
            yield line

    platform = ConsolePlatform(io.StringIO(), read, echo=True)
    async with running_service(
        tmp_path / "p.db", [platform], FakeClock(START), load_catalog()
    ) as service:
        await run_script(service, platform)
    assert prompts == [
        "you> ",
        "you> ",
        "you [form: Suggest a question]> ",
        "you [form: Suggest a question]> ",
        "you> ",
    ]
