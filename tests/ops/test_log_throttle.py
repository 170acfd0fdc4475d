"""ThrottledLog: one line per interval, and the next line says how many were left out."""

from __future__ import annotations

import logging

import pytest

from adapters.ops.log_throttle import ThrottledLog


def test_a_flood_gives_one_line_per_interval_with_the_count_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    throttled = ThrottledLog(
        logging.getLogger("quizbot.test.throttle"), logging.WARNING, monotonic=lambda: now[0]
    )
    with caplog.at_level(logging.WARNING, logger="quizbot.test.throttle"):
        for _ in range(1000):
            throttled("bad request: %s", "x")
        now[0] = 10.0
        throttled("bad request: %s", "y")
    assert [r.getMessage() for r in caplog.records] == [
        "bad request: x",
        "bad request: y (999 more like it left out)",
    ]
