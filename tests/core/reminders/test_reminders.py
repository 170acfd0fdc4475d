"""Daily review reminders through the core and the fake platform: one DM a day at the
member's local time, only with reviews due; off stops them; exactly once across crashes,
restarts and several processes; the right form for bad arguments; DST-correct slots."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef
from bot.reminders.daily import reminder_key, reminder_plan
from bot.reminders.store import Reminder
from bot.scheduling.slot_arithmetic import next_slot, slots_after
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform, SimulatedCrash
from tests.harness import QuizHarness, running_service

BERLIN = ZoneInfo("Europe/Berlin")
FORM = "Use: /quiz remind [off|HH:MM [TIMEZONE]]\nExample: /quiz remind 08:30 Europe/Berlin"


def reminders_to(platform: FakePlatform, member: str) -> list[str]:
    """The bodies of the reminders sent to the member's DM channel."""
    return [
        m.card.body
        for m in platform.messages
        if m.channel.channel_id == f"D-{member}" and m.card.title == "Time to review"
    ]


async def make_review_due(quiz: QuizHarness, member: str) -> datetime:
    """Grade one question "missed" for the member; returns when it comes due."""
    await quiz.command("now")
    round_ = await quiz.round()
    member_id = await quiz.service.store.members.member_id(quiz.member(member))
    result = await quiz.service.learning.grade(
        member_id, round_.question_id, Grade.MISSED, quiz.clock.now()
    )
    return result.card.due


def slot_on(day: date, at: str = "08:30", tz: ZoneInfo = BERLIN) -> datetime:
    """The UTC instant of ``at`` local time on ``day``."""
    hour, minute = map(int, at.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz).astimezone(UTC)


async def fire(quiz: QuizHarness, member: str, slot: datetime) -> None:
    """The reminder's slot fires at ``slot`` (the clock is set there) and the outbox runs."""
    quiz.clock.set(slot)
    member_id = await quiz.service.store.members.member_id(quiz.member(member))
    await quiz.service.reminders.on_slot(member_id, slot)
    await quiz.service.settle()


async def test_set_show_and_off(quiz: QuizHarness) -> None:
    assert (await quiz.command("remind", by="ann")).card.title == "No reminder"
    set_ = await quiz.command("remind 8:30 europe/berlin", by="ann")
    assert set_.card.title == "Reminder set"
    assert "Every day at 08:30 (Europe/Berlin)" in set_.card.body
    member_id = await quiz.service.store.members.member_id(quiz.member("ann"))
    stored = await quiz.service.store.reminders.reminder(member_id)
    assert stored is not None
    assert (stored.local_time, stored.timezone, stored.direct.channel_id) == (
        "08:30",
        "Europe/Berlin",
        "D-ann",
    )
    shown = await quiz.command("remind", by="ann")
    assert shown.card.title == "Your reminder" and "08:30 (Europe/Berlin)" in shown.card.body
    # a new time keeps the timezone given before
    await quiz.command("remind 07:00", by="ann")
    changed = await quiz.service.store.reminders.reminder(member_id)
    assert changed is not None and (changed.local_time, changed.timezone) == (
        "07:00",
        "Europe/Berlin",
    )
    assert (await quiz.command("remind off", by="ann")).card.title == "Reminder off"
    assert await quiz.service.store.reminders.reminder(member_id) is None
    assert (await quiz.command("remind off", by="ann")).card.title == "No reminder was set."


async def test_without_a_timezone_the_channel_one_is_used(quiz: QuizHarness) -> None:
    await quiz.command("schedule weekdays 09:00 America/New_York")
    await quiz.command("remind 18:00", by="bob")
    member_id = await quiz.service.store.members.member_id(quiz.member("bob"))
    stored = await quiz.service.store.reminders.reminder(member_id)
    assert stored is not None and stored.timezone == "America/New_York"


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ("25:00", "'25:00' is not a time of day: use 24-hour time, 00:00 to 23:59."),
        ("8.30", "'8.30' is not a time: write it as HH:MM, e.g. 08:30."),
        ("Europe/Berlin", "'Europe/Berlin' is not a time: write it as HH:MM, e.g. 08:30."),
        (
            "08:30 Mars/Olympus",
            "Unknown timezone 'Mars/Olympus': use an IANA name such as Europe/Berlin, "
            "America/New_York or UTC.",
        ),
        ("off Europe/Berlin", "off takes nothing after it."),
        ("08:30 UTC extra", "Name at most one timezone."),
    ],
)
async def test_bad_arguments_get_the_right_form(quiz: QuizHarness, args: str, problem: str) -> None:
    refused = await quiz.command(f"remind {args}", by="ann")
    assert refused.card.body == f"{problem}\n{FORM}"
    member_id = await quiz.service.store.members.member_id(quiz.member("ann"))
    assert await quiz.service.store.reminders.reminder(member_id) is None


async def test_the_reminder_comes_once_a_day_and_only_with_reviews_due(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    today = quiz.clock.now().astimezone(BERLIN).date()
    await fire(quiz, "ann", slot_on(today))
    assert reminders_to(platform, "ann") == []  # nothing graded: nothing due

    due = await make_review_due(quiz, "ann")
    first = (due + timedelta(days=1)).astimezone(BERLIN).date()
    await fire(quiz, "ann", slot_on(first))
    assert reminders_to(platform, "ann") == [
        "1 question is due for review today. Start with `/quiz practice`; "
        "`/quiz remind off` stops these reminders."
    ]
    # the same day's slot handled again (a restart's catch-up, another replica): no second DM
    await fire(quiz, "ann", slot_on(first) + timedelta(minutes=5))
    await quiz.service.reminders.catch_up(await quiz.service.store.reminders.reminders())
    await quiz.service.settle()
    assert len(reminders_to(platform, "ann")) == 1
    # the next day, still due: one more
    await fire(quiz, "ann", slot_on(first + timedelta(days=1)))
    assert len(reminders_to(platform, "ann")) == 2
    keys = [m.key for m in platform.messages if m.card.title == "Time to review"]
    member_id = await quiz.service.store.members.member_id(quiz.member("ann"))
    assert keys == [reminder_key(member_id, first), reminder_key(member_id, first + timedelta(1))]


async def test_off_stops_the_reminders(quiz: QuizHarness, platform: FakePlatform) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(BERLIN).date()
    await quiz.command("remind off", by="ann")
    await fire(quiz, "ann", slot_on(day))
    await quiz.service.reminders.catch_up(await quiz.service.store.reminders.reminders())
    await quiz.service.settle()
    assert reminders_to(platform, "ann") == []


async def test_a_missed_reminder_is_sent_late_once_after_a_restart_within_the_grace(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(BERLIN).date()
    await quiz.service.stop()
    clock.set(slot_on(day) + timedelta(hours=2))  # down at 08:30, back at 10:30
    for _ in range(2):  # started twice that morning: still one reminder
        async with running_service(db_path, [platform], clock, catalog) as service:
            await service.settle()
    assert len(reminders_to(platform, "ann")) == 1
    clock.set(slot_on(day + timedelta(days=1)) + timedelta(hours=7))  # beyond the grace
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert len(reminders_to(platform, "ann")) == 1


async def test_a_crash_after_sending_a_reminder_does_not_send_it_twice(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(BERLIN).date()
    platform.crash_after_send = True  # sent, then the process dies before recording it
    with pytest.raises(SimulatedCrash):
        await fire(quiz, "ann", slot_on(day))
    assert len(reminders_to(platform, "ann")) == 1
    await quiz.service.stop()
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()  # the claimed action comes round again: found by its key
    assert len(reminders_to(platform, "ann")) == 1


async def test_a_crash_before_sending_a_reminder_does_not_lose_it(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(BERLIN).date()
    platform.failures.append(SimulatedCrash("claimed, not sent"))
    with pytest.raises(SimulatedCrash):
        await fire(quiz, "ann", slot_on(day))
    assert reminders_to(platform, "ann") == []
    await quiz.service.stop()
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert len(reminders_to(platform, "ann")) == 1


async def test_two_processes_firing_the_same_slot_send_one_reminder(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")
    due = await make_review_due(quiz, "ann")
    slot = slot_on((due + timedelta(days=1)).astimezone(BERLIN).date())
    clock.set(slot)
    member_id = await quiz.service.store.members.member_id(quiz.member("ann"))
    async with running_service(db_path, [platform], clock, catalog) as other:
        await quiz.service.reminders.on_slot(member_id, slot)
        await other.reminders.on_slot(member_id, slot)
        await other.settle()
        await quiz.service.settle()
    assert len(reminders_to(platform, "ann")) == 1


def test_slots_follow_the_local_time_across_daylight_saving() -> None:
    reminder = Reminder(1, _dm(), "02:30", "Europe/Berlin")
    plan = reminder_plan(reminder)
    start = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
    slots = list(slots_after(plan.spec, plan.tz, start))[:4]
    local = [s.astimezone(BERLIN) for s in slots]
    # 28 Mar 02:30 CET; 29 Mar 02:30 does not exist: once, at 03:30 CEST; then 02:30 CEST
    assert [(d.day, d.hour, d.minute) for d in local] == [
        (28, 2, 30),
        (29, 3, 30),
        (30, 2, 30),
        (31, 2, 30),
    ]
    assert [s.astimezone(UTC).hour for s in slots] == [1, 1, 0, 0]
    # autumn: 02:30 happens twice on 25 Oct; the reminder fires once, one local date each
    autumn = list(slots_after(plan.spec, plan.tz, datetime(2026, 10, 24, 12, tzinfo=UTC)))[:3]
    assert [s.astimezone(BERLIN).date().day for s in autumn] == [25, 26, 27]
    assert next_slot(plan.spec, plan.tz, start) == slots[0]


def _dm() -> ChannelRef:
    return ChannelRef("fake", "team", "D-ann", "DM")


async def test_a_replica_that_missed_a_change_of_time_does_not_remind_at_the_old_time(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await quiz.command("remind 08:30 Europe/Berlin", by="ann")  # scheduled on this replica
    due = await make_review_due(quiz, "ann")
    day = (due + timedelta(days=1)).astimezone(BERLIN).date()
    member_id = await quiz.service.store.members.member_id(quiz.member("ann"))
    async with running_service(db_path, [platform], clock, catalog) as other:
        # the member moves it to 20:00 through the other replica; this one still has 08:30
        current = await other.reminders.reminder(member_id)
        assert current is not None
        await other.reminders.set(Reminder(member_id, current.direct, "20:00", "Europe/Berlin"))
        await fire(quiz, "ann", slot_on(day))
        assert reminders_to(platform, "ann") == []
        clock.set(slot_on(day, "20:00"))
        await other.reminders.on_slot(member_id, slot_on(day, "20:00"))
        await other.settle()
    assert len(reminders_to(platform, "ann")) == 1
