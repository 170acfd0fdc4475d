"""On the console only the word ``/quiz`` is the command: ``/quizzes now`` or ``/quizbot
leaderboard`` ran as ``/quiz now`` and ``/quiz leaderboard``, as no chat platform would."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service


async def test_only_the_word_quiz_is_the_command(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = ["/quizzes now", "/quizbot leaderboard", "/quiz/now", "/QUIZ me"]
    platform = ConsolePlatform(out, script(lines), echo=True)
    async with running_service(
        tmp_path / "w.db", [platform], FakeClock(START), Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
        assert await service.store.rounds.latest_round_times() == {}  # nothing was posted
    transcript = out.getvalue()
    assert "Question #1" not in transcript and "Leaderboard" not in transcript
    assert "(unknown control '/quizzes'; the command is /quiz, e.g. /quiz now)" in transcript
    assert "(unknown control '/quizbot'; the command is /quiz, e.g. /quiz leaderboard)" in (
        transcript
    )
    assert "(unknown control '/quiz/now'; the command is /quiz" in transcript
    assert "(unknown control '/QUIZ'; the command is /quiz, e.g. /quiz me)" in transcript
