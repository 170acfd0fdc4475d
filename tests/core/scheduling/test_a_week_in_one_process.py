"""A week and a day in one process, as a team runs it, on both store backends: the real
schedulers (their APScheduler jobs), outbox worker, reminders, recaps, pairing, notices
and reveal-after, on a fake clock that jumps to the next thing due (tests/scheduler_time.py).

Every day's question arrives once at its local time, its outline once, each notice and
last call once and never after the outline, each reminder on the day a review comes due,
the week's recap, the month's season and each week's pairing once; nothing on the
holiday, nothing to the member away. Asserted from what the platform received
(tests/soak/checks.py). Issue #35: a process that stays up posted its first question and
never another, which a restart between days hid. The 90-day version with several
channels, timezones and two replicas is ``bench/soak.py``.
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path

import pytest

from tests.soak.run import soak, store_options
from tests.soak.scenario import SoakChannel, SoakPlan
from tests.storage.backends import BACKENDS, open_store

WEEK = SoakPlan(
    first_day=date(2031, 1, 27),  # a Monday: pairing at once, the recap on day 5, the
    # season's turn (1 February) on day 6
    days=8,  # the second Monday too: the pairing fires again
    channels=(
        SoakChannel(
            number=1,
            timezone="Europe/Berlin",
            at=time(9, 0),
            reminders={
                "ann": (time(8, 0), "Europe/Berlin"),
                "dan": (time(7, 30), "Asia/Tokyo"),
                "eve": (time(21, 0), "America/New_York"),
            },
        ),
    ),
    holidays=(2,),  # Wednesday
    away=((6, 7),),  # dan, Sunday and Monday: no notice, reminder or pairing
)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_every_post_of_a_week_arrives_once_at_its_time(backend: str, tmp_path: Path) -> None:
    async with open_store(backend, tmp_path, **store_options(backend)) as store:
        run = await soak(WEEK, [store])

    assert (run.refused, run.unsaved, run.failures) == ([], [], [])
    assert run.result.problems == [], run.result.summary()
    kinds = run.result.per_kind
    assert (kinds["question"], kinds["recap"], kinds["brief"]) == (7, 1, 4 + 3)
    assert kinds["season"] == 1  # January's champions, at midnight in the channel's zone
    assert kinds["last call"] > 0 and kinds["reminder"] > 0
