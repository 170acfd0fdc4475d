"""A test, its set-up or its teardown stuck on an await fails, with every task's stack.

A hang leaves the main thread idle in the event loop's ``select``: faulthandler's dump
of the threads then shows nothing of the await that never completes, and the suite
stops there. After :data:`HANG_SECONDS` this watch prints the stack of every task of
the running event loops and cancels them, so the test fails with what was waiting and
the rest of the suite runs.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
from collections.abc import Generator

import pytest

# the slowest test takes a few seconds on a loaded machine
HANG_SECONDS = float(os.environ.get("QUIZBOT_TEST_HANG_SECONDS", "120"))


def _running_loops() -> list[asyncio.AbstractEventLoop]:
    return [
        o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()
    ]


def _report_and_cancel(test: str, seconds: float) -> None:
    out = sys.__stderr__
    print(f"\n{test} still running after {seconds:g} s; its tasks:", file=out)
    for task in asyncio.all_tasks():
        print(f"--- {task.get_name()}, awaiting:", file=out)
        for line in _await_chain(task.get_coro()):
            print(f"    {line}", file=out)
    for task in asyncio.all_tasks():
        task.cancel()


def _await_chain(awaitable: object) -> list[str]:
    """Where each coroutine in the chain a task awaits through is suspended, outermost
    first (``Task.print_stack`` shows only the outermost)."""
    lines = []
    while awaitable is not None:
        frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
        if frame is not None:
            lines.append(f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return lines


class HangWatch:
    def __init__(self, test: str, seconds: float = HANG_SECONDS) -> None:
        self._timer = threading.Timer(seconds, self._fire, args=(test, seconds))
        self._timer.daemon = True

    def __enter__(self) -> None:
        self._timer.start()

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    @staticmethod
    def _fire(test: str, seconds: float) -> None:
        for loop in _running_loops():
            loop.call_soon_threadsafe(_report_and_cancel, test, seconds)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    with HangWatch(item.nodeid):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    with HangWatch(f"{item.nodeid} (setup)"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    with HangWatch(f"{item.nodeid} (teardown)"):
        return (yield)
