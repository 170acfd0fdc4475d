"""The console's input from a terminal or a pipe, read without blocking the event loop."""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import TextIO

from adapters.console.connector import LineSource

log = logging.getLogger(__name__)


def stream_lines(stream: TextIO, *, prompt: bool) -> LineSource:
    """The lines of ``stream``; with ``prompt``, the prompt is written before each line."""

    async def lines(prompt_text: Callable[[], str]) -> AsyncIterator[str]:
        async for line in _read(stream, prompt_text if prompt else None):
            yield line

    return lines


async def _read(stream: TextIO, prompt: Callable[[], str] | None) -> AsyncIterator[str]:
    """Lines of ``stream``, read by a daemon thread.

    Not asyncio.to_thread: asyncio.run joins its executor's threads at exit, and a
    readline() blocked on idle terminal input must not hold up a SIGTERM exit.
    Bytes that are not valid in the stream's encoding become U+FFFD, so a bad line
    is answered like any other instead of ending the input.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")

    def read() -> None:
        while True:
            try:
                line = stream.readline()
            except (OSError, ValueError) as problem:  # the input cannot be read: end it
                log.warning("console input ended: %s", problem)
                line = ""
            try:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            except RuntimeError:  # the loop is closed: we are shutting down
                return
            if not line:
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    while True:
        if prompt is not None:
            sys.stdout.write(prompt())
            sys.stdout.flush()
        line = await lines.get()
        if not line:
            return
        yield line
