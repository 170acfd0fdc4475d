"""`/quiz remind` on the console: the right form for a bad time, the reminder set, and on
the day a review is due, one reminder in the DM transcript."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

BERLIN = ZoneInfo("Europe/Berlin")
SCRIPT = [
    "/quiz remind 8h30",  # refused, with the form
    "/quiz remind 08:30 Europe/Berlin",
    "/quiz practice networking",
    ":dm",
    "my answer",
    "my follow-up answer",
    "/quiz grade missed",  # due again tomorrow
]


async def test_a_reminder_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    clock = FakeClock(START)
    async with running_service(
        tmp_path / "r.db", [platform], clock, Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
        (reminder,) = await service.store.reminders.reminders()
        cards = await service.store.learning.member_cards(reminder.member_id)
        (due,) = [card.due for card in cards.values()]
        day = (due + timedelta(days=1)).astimezone(BERLIN).date()
        slot = datetime(day.year, day.month, day.day, 8, 30, tzinfo=BERLIN).astimezone(UTC)
        clock.set(slot)
        for _ in range(2):  # handled twice (a restart's catch-up, say): one reminder
            await service.reminders.on_slot(reminder.member_id, slot)
            await service.settle()
    transcript = out.getvalue().splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(transcript) if text in line)

    refused = " ".join(transcript[at("you: /quiz remind 8h30") + 1 :][:4])
    assert "'8h30' is not a time: write it as HH:MM, e.g. 08:30." in refused
    assert "Use: /quiz remind [off|HH:MM [TIMEZONE]]" in refused
    set_ = at("you: /quiz remind 08:30 Europe/Berlin")
    assert transcript[set_ + 1] == "[#practice] quizbot → you (private): Reminder set"
    reminders = [line for line in transcript if "quizbot: Time to review" in line]
    assert reminders == ["[DM › you] quizbot: Time to review"]
    assert "1 question is due for review" in transcript[at("quizbot: Time to review") + 1]
