"""A hung await fails its test with the stack of what was waiting (tests/hang_watch.py)."""

from __future__ import annotations

import asyncio

import pytest

from tests.hang_watch import HangWatch


async def waits_for_ever() -> None:
    await asyncio.Event().wait()


async def test_a_hung_await_is_cancelled_and_its_stack_printed(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with HangWatch("the test", seconds=0.2), pytest.raises(asyncio.CancelledError):
        await waits_for_ever()
    asyncio.current_task().uncancel()  # type: ignore[union-attr]
    printed = capfd.readouterr().err
    assert "the test still running after 0.2 s" in printed
    assert "in waits_for_ever" in printed


async def test_a_test_that_ends_in_time_is_left_alone() -> None:
    with HangWatch("the test", seconds=0.2):
        await asyncio.sleep(0)
    await asyncio.sleep(0.3)  # past the watch's time: it was stopped
