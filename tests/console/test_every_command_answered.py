"""Fuzzing ``/quiz`` on the console: every input gets an answer, and nothing is logged at ERROR."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given

from adapters.console.connector import ConsolePlatform
from adapters.console.session import ConsoleSession
from questions.catalog import Catalog
from tests.command_inputs import FUZZ, quiz_inputs, with_reported_inputs
from tests.fakes import FakeClock
from tests.harness import running_service


@pytest.fixture
async def console(
    db_path: Path, clock: FakeClock, catalog: Catalog
) -> AsyncIterator[tuple[ConsoleSession, io.StringIO]]:
    out = io.StringIO()
    platform = ConsolePlatform(out)
    async with running_service(db_path, [platform], clock, catalog) as service:
        platform.after_each_line(service.settle)
        try:
            yield platform.session(service.handle), out
        finally:
            await platform.stop()  # removes the charts `/quiz me` wrote


@FUZZ
@given(text=quiz_inputs)
@with_reported_inputs
@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # 5,000-digit inputs
async def test_every_quiz_input_gets_an_answer(
    console: tuple[ConsoleSession, io.StringIO], caplog: pytest.LogCaptureFixture, text: str
) -> None:
    session, out = console
    line = "/quiz " + text.replace("\n", " ").replace("\r", " ")  # the console reads lines
    answered_from = out.tell()
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        assert await session.handle_line(line)
        await session.settle()
    assert out.getvalue()[answered_from:].strip(), f"no answer to {line!r}"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
