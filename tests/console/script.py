"""Runs the console in-process the way the runtime does, on a script of input lines."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence

from adapters.console.connector import ConsolePlatform, LineSource
from bot.service import QuizService


def script(lines: Sequence[str]) -> LineSource:
    """Input that is ``lines``, as a pipe gives them (no prompt)."""

    async def read(prompt: Callable[[], str]) -> AsyncIterator[str]:
        for line in lines:
            yield line

    return read


async def run_script(service: QuizService, console: ConsolePlatform) -> None:
    """Start ``console`` on the service, wait for the end of its input, stop it."""
    console.after_each_line(service.settle)
    console.let_time_pass(service.pass_time)  # a script's `:wait`, on the test's clock
    await console.start(service.handle)
    try:
        await console.until_input_ends()
    finally:
        await console.stop()
