"""Holidays and time away on the console: `/quiz schedule skip|unskip` and the list,
`/quiz away until DATE|off` and its status, the right form for bad dates, and a skipped
day's slot posting nothing while the next day's posts."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz schedule daily 09:00 UTC",
    "/quiz schedule skip 2026-11-30..2026-12-02",
    "/quiz schedule unskip 2026-12-02",
    "/quiz schedule skip 1 Dec",  # refused, with the form
    "/quiz schedule",
    "/quiz away until 2026-12-31",
    "/quiz away",
    "/quiz away until 2026-13-01",  # refused, with the form
    "/quiz away off",
]


async def test_holidays_and_away_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    clock = FakeClock(START)  # Mon 30 Nov 2026 08:00 UTC
    async with running_service(
        tmp_path / "h.db", [platform], clock, Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
        [channel] = await service.store.channels.list_channels()
        assert await service.store.skipped_days.skipped_days(channel.id, date(2026, 11, 30)) == [
            date(2026, 11, 30),
            date(2026, 12, 1),
        ]
        posted = len(out.getvalue())
        for day in (1, 2):
            slot = datetime(2026, 12, day, 9, 0, tzinfo=UTC)
            clock.set(slot)
            await service.post_slot(channel.id, slot)
            await service.settle()
            if day == 1:
                assert "Question #" not in out.getvalue()[posted:]  # the skipped day
        assert "Question #1" in out.getvalue()[posted:]  # the next day
    text = out.getvalue()

    def after(line: str, lines: int = 6) -> str:
        rows = text.splitlines()
        at = next(i for i, row in enumerate(rows) if f"you: {line}" == row.split("] ", 1)[-1])
        return "\n".join(rows[at + 1 : at + 1 + lines])

    assert "No question on Mon 30 Nov 2026 – Wed 02 Dec 2026" in after(SCRIPT[1])
    assert "1 day had been skipped" in after(SCRIPT[2])
    refused = after(SCRIPT[3])
    assert "Give the dates to skip or unskip" in refused
    assert "Use: /quiz schedule [skip|unskip DATE[..DATE]] [SPEC... [TIMEZONE]]" in refused
    listed = after(SCRIPT[4], 12)
    assert "Skipped days ahead" in listed
    assert "Mon 30 Nov 2026 – Tue 01 Dec 2026" in listed
    assert "Wed 02 Dec 2026 09:00" in listed  # the next question really posted
    assert "until Thu 31 Dec 2026" in after(SCRIPT[5])
    assert "You are away" in after(SCRIPT[6])
    assert "'2026-13-01' is not a date" in after(SCRIPT[7])
    assert "Welcome back" in after(SCRIPT[8])
