"""The weekly recap: its content from a seeded week, the empty week, scheduling across DST,
and exactly once across a crash."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.render import Card
from bot.recaps._schedule import RecapSetting, recap_plan
from bot.recaps.recap import recap_key, recap_week, week_before
from bot.scheduling.slot_arithmetic import next_slot, previous_slot
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform, Sent, SimulatedCrash
from tests.harness import QuizHarness, running_service
from tests.store_reads import round_actions

BERLIN = ZoneInfo("Europe/Berlin")
MONDAY = datetime(2026, 11, 30, tzinfo=UTC)
FRIDAY_RECAP = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)  # the default slot, in UTC


def day(offset: int, hour: int = 9, minute: int = 0) -> datetime:
    return MONDAY + timedelta(days=offset, hours=hour, minutes=minute)


async def channel_settings(quiz: QuizHarness) -> ChannelSettings:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    return channel


async def scheduled_round(quiz: QuizHarness, slot: datetime) -> None:
    quiz.clock.set(slot)
    channel = await channel_settings(quiz)
    await quiz.service.post_slot(channel.id, slot)
    await quiz.service.settle()
    quiz.clock.advance(minutes=5)


async def seed_week(quiz: QuizHarness) -> dict[str, str]:
    """Five scheduled rounds Monday to Friday; answers, votes and grades. Returns the
    answer message ids by a label."""
    quiz.clock.set(MONDAY)
    await quiz.command("schedule weekdays 09:00 UTC")
    answers: dict[str, str] = {}
    who_answers = {
        0: ["alice", "bob"],
        1: ["alice"],
        2: ["alice", "bob", "carol"],
        3: ["alice"],
        4: ["alice", "bob"],
    }
    for offset, members in who_answers.items():
        await scheduled_round(quiz, day(offset))
        for member in members:
            answers[f"{member}-{offset}"] = await quiz.answer(
                member, f"{member.title()}'s answer on day {offset}: " + "word " * 60
            )
            quiz.clock.advance(minutes=1)
        await quiz.command("reveal")
        await quiz.command("grade nailed", by="alice")
        await quiz.command("grade missed", by="bob")
    await quiz.react("carol", "👍", message_id=answers["alice-0"])
    await quiz.react("bob", "👍", message_id=answers["alice-0"])
    await quiz.react("bob", "👍", message_id=answers["alice-1"])
    await quiz.react("alice", "👍", message_id=answers["carol-2"])
    return answers


def recaps(platform: FakePlatform) -> list[Sent]:
    return [m for m in platform.in_channel() if m.key.startswith("recap:")]


def field(card: Card, name: str) -> str:
    [value] = [f.value for f in card.fields if f.name == name]
    return value


async def send_recap(quiz: QuizHarness, slot: datetime) -> None:
    quiz.clock.set(slot)
    await quiz.service.recaps.on_slot((await channel_settings(quiz)).id, slot)
    await quiz.service.settle()


async def test_the_recap_of_a_seeded_week_says_what_happened(quiz: QuizHarness) -> None:
    answers = await seed_week(quiz)
    await send_recap(quiz, FRIDAY_RECAP)

    [sent] = recaps(quiz.platform)
    channel = await channel_settings(quiz)
    assert sent.key == f"recap:{channel.id}:2026-W49"
    card = sent.card
    assert card.title == "Weekly recap · 27 Nov – 04 Dec 2026"
    assert field(card, "Rounds") == "5 (+5 on the week before: 0)"
    assert field(card, "Members who answered") == "3 (+3 on the week before: 0)"
    top = field(card, "Most-voted answers").splitlines()
    assert len(top) == 3
    assert top[0].startswith("1. Alice (2 votes): “Alice's answer on day 0: word word")
    assert top[0].endswith(f"/{answers['alice-0']}")  # the link to the message
    assert top[1].startswith("2. Alice (1 vote): “Alice's answer on day 1")
    assert top[2].startswith("3. Carol (1 vote): “Carol's answer on day 2")
    assert "…”" in top[0]  # a short excerpt, not the whole answer
    assert field(card, "Streak leaders") == "Alice 5 in a row, Bob 1 in a row"
    # the week's scheduled days by date, in order: no empty weekend, no folded Fridays
    assert field(card, "Members per day") == (
        "Mon 30 Nov 2, Tue 01 Dec 1, Wed 02 Dec 3, Thu 03 Dec 1, Fri 04 Dec 2"
    )
    # the first grades were this week: the seven weeks before have no point
    trend = field(card, "Expected recall, last 8 weeks")
    assert trend.startswith("04 Dec ") and trend.endswith("% (1 week so far)") and "," not in trend

    learning = quiz.service.learning
    mastery = await learning.channel_mastery(channel.id, FRIDAY_RECAP)
    assert mastery, "the grades made channel cards"
    ranked = sorted(mastery.items(), key=lambda item: (-round(item[1] * 100), item[0]))
    assert len(ranked) == 3, "the sample pack's three topics, all graded"
    assert round(ranked[0][1] * 100) > round(ranked[-1][1] * 100)
    # three topics within a point or two of each other: none is strongest or weakest
    percents = [round(recall * 100) for _, recall in ranked]
    assert max(percents) - min(percents) < 10
    median = sorted(percents)[1]
    assert field(card, "Strongest topics") == (
        f"None: no topic is 10+ points above the team's median topic, {median}%."
    )
    assert field(card, "Weakest topics") == (
        f"None: no topic is 10+ points below the team's median topic, {median}%."
    )
    due = await learning.channel_due(channel.id, FRIDAY_RECAP, FRIDAY_RECAP + timedelta(days=7))
    expected_due = ", ".join(
        f"{t} ({n})" for t, n in sorted(due.items(), key=lambda i: (-i[1], i[0]))
    )
    assert field(card, "Due to review next week") == (expected_due or "Nothing due.")

    assert card.image is not None
    assert card.image.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert card.image.filename == "recap-2026-W49.png"


async def test_a_recap_with_one_graded_topic_names_it_once(quiz: QuizHarness) -> None:
    quiz.clock.set(MONDAY)
    await quiz.command("schedule weekdays 09:00 UTC")
    await quiz.command("topics disable gpu networking")
    await scheduled_round(quiz, day(0))
    await quiz.answer("alice", "An answer")
    await quiz.command("reveal")
    await quiz.command("grade good", by="alice")
    await send_recap(quiz, FRIDAY_RECAP)
    [sent] = recaps(quiz.platform)
    # a lone topic stands out from nothing: it is neither strongest nor weakest
    assert field(sent.card, "Strongest topics").startswith("None: no topic is 10+ points above")
    assert field(sent.card, "Weakest topics").startswith("None: no topic is 10+ points below")


async def test_the_week_before_is_compared(quiz: QuizHarness) -> None:
    await seed_week(quiz)
    await scheduled_round(quiz, day(7))  # the next Monday: one round, nobody answers
    await send_recap(quiz, FRIDAY_RECAP + timedelta(days=7))
    latest = recaps(quiz.platform)[-1].card
    assert field(latest, "Rounds") == "1 (-4 on the week before: 5)"
    assert field(latest, "Members who answered") == "0 (-3 on the week before: 3)"
    assert field(latest, "Most-voted answers") == "No votes this week."
    assert field(latest, "Members per day") == (
        "Mon 07 Dec 0, Tue 08 Dec no question, Wed 09 Dec no question,"
        " Thu 10 Dec no question, Fri 11 Dec no question"
    )
    assert field(latest, "Expected recall, last 8 weeks").count("%") == 2  # two graded weeks


async def test_a_week_without_rounds_gets_no_recap(quiz: QuizHarness) -> None:
    quiz.clock.set(MONDAY)
    await quiz.command("schedule weekdays 09:00 UTC")
    await send_recap(quiz, FRIDAY_RECAP)
    assert recaps(quiz.platform) == []
    counts = await quiz.service.store.outbox.outbox_counts()
    assert counts.get("pending", 0) == 0


async def test_a_recap_without_grades_says_so(quiz: QuizHarness) -> None:
    quiz.clock.set(MONDAY)
    await quiz.command("schedule weekdays 09:00 UTC")
    await scheduled_round(quiz, day(2))
    await quiz.answer("dana", "An answer")
    await send_recap(quiz, FRIDAY_RECAP)
    [sent] = recaps(quiz.platform)
    assert field(sent.card, "Strongest topics") == "No grades yet."
    assert field(sent.card, "Due to review next week") == "Nothing due."
    assert field(sent.card, "Streak leaders") == "Dana 1 in a row"
    assert sent.card.image is not None


async def test_recap_off_sends_none_and_a_new_day_is_used(quiz: QuizHarness) -> None:
    await seed_week(quiz)
    response = await quiz.command("recap off")
    assert "No weekly recap" in response.card.body
    await send_recap(quiz, FRIDAY_RECAP)
    assert recaps(quiz.platform) == []

    await quiz.command("recap thu 17:30")
    channel = await channel_settings(quiz)
    assert quiz.service.recaps.setting(channel.id) == RecapSetting(True, "thu 17:30")
    plan = quiz.service.recaps.plan(channel)
    assert plan is not None
    assert next_slot(plan.spec, plan.tz, MONDAY) == datetime(2026, 12, 3, 17, 30, tzinfo=UTC)
    shown = await quiz.command("recap", by="erin")
    assert field(shown.card, "Recap") == "weekly, thu 17:30"


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        ("recap fri,sat 10:00", "Name one day, not 'fri,sat'."),
        ("recap weekdays 10:00", "Name one day, not 'weekdays'."),
        ("recap fri 25:00", "Invalid time '25:00'"),
        ("recap off 10:00", "off takes nothing after it."),
        ("recap someday", "Unknown day 'someday': name one day, mon..sun, or off."),
        ("recap 16:00", "'16:00' is a time, not a day: name the day first, e.g. fri 16:00."),
        ("recap 9:30 mon", "'9:30' is a time, not a day: name the day first, e.g. mon 9:30."),
        ("recap fri noon", "'noon' is not a time: write it as HH:MM, e.g. 16:00."),
    ],
)
async def test_a_bad_recap_time_is_refused_with_the_form(
    quiz: QuizHarness, words: str, problem: str
) -> None:
    await quiz.command("schedule weekdays 09:00 UTC")
    response = await quiz.command(words)
    assert response.card.title == "Sorry"
    assert problem in response.card.body
    # off, or a day with an optional time (never "off HH:MM")
    assert "Use: /quiz recap [off|DAY [HH:MM]]" in response.card.body


async def test_members_may_not_change_the_recap(quiz: QuizHarness) -> None:
    await quiz.command("schedule weekdays 09:00 UTC")
    response = await quiz.command("recap off", by="mallory")
    assert response.card.title == "Sorry"
    channel = await channel_settings(quiz)
    assert quiz.service.recaps.setting(channel.id).enabled


# ---------------------------------------------------------------- DST


def berlin_channel() -> ChannelSettings:
    from bot.kernel.refs import ChannelRef

    return ChannelSettings(id=1, ref=ChannelRef("fake", "w", "C"), timezone="Europe/Berlin")


def test_the_recap_slot_keeps_its_local_time_across_dst() -> None:
    plan = recap_plan(berlin_channel(), RecapSetting())
    assert plan is not None
    # Friday 27 March 2026 is CET (UTC+1); Sunday 29 March moves to CEST (UTC+2).
    before = datetime(2026, 3, 27, 15, 0, tzinfo=UTC)
    assert next_slot(plan.spec, plan.tz, before - timedelta(minutes=1)) == before
    after = next_slot(plan.spec, plan.tz, before)
    assert after == datetime(2026, 4, 3, 14, 0, tzinfo=UTC)  # still 16:00 in Berlin
    # and back in autumn: 23 October (CEST), then 30 October (CET, from 25 October)
    autumn = next_slot(plan.spec, plan.tz, datetime(2026, 10, 23, 13, 0, tzinfo=UTC))
    assert autumn == datetime(2026, 10, 23, 14, 0, tzinfo=UTC)
    assert next_slot(plan.spec, plan.tz, autumn) == datetime(2026, 10, 30, 15, 0, tzinfo=UTC)


def test_the_week_a_recap_reports_spans_the_dst_change() -> None:
    slot = datetime(2026, 4, 3, 14, 0, tzinfo=UTC)  # Friday 16:00 CEST
    start, end = week_before(slot, BERLIN)
    assert start == datetime(2026, 3, 27, 15, 0, tzinfo=UTC)  # Friday 16:00 CET
    assert end - start == timedelta(hours=167)
    assert recap_week(slot, BERLIN) == "2026-W14"


def test_a_recap_time_that_does_not_exist_fires_once_moved_forward() -> None:
    plan = recap_plan(berlin_channel(), RecapSetting(True, "sun 02:30"))
    assert plan is not None
    slot = next_slot(plan.spec, plan.tz, datetime(2026, 3, 28, tzinfo=UTC))
    assert slot == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST, the gap skipped
    assert next_slot(plan.spec, plan.tz, slot) == datetime(2026, 4, 5, 0, 30, tzinfo=UTC)


def test_a_recap_time_that_happens_twice_fires_once() -> None:
    plan = recap_plan(berlin_channel(), RecapSetting(True, "sun 02:30"))
    assert plan is not None
    slot = next_slot(plan.spec, plan.tz, datetime(2026, 10, 24, tzinfo=UTC))
    assert slot == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # the first 02:30 (CEST)
    assert next_slot(plan.spec, plan.tz, slot) == datetime(2026, 11, 1, 1, 30, tzinfo=UTC)


# ---------------------------------------------------------------- downtime and crashes


async def test_after_downtime_the_recap_goes_out_late_within_the_grace_once(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await seed_week(quiz)
    await quiz.service.stop()
    clock.set(FRIDAY_RECAP + timedelta(hours=5))  # down at 16:00, back at 21:00
    for _ in range(2):  # two restarts: the second finds the recap recorded
        async with running_service(db_path, [platform], clock, catalog) as service:
            await service.settle()
    [sent] = recaps(platform)
    assert sent.key.endswith("2026-W49")


async def test_after_downtime_beyond_the_grace_the_recap_is_skipped(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await seed_week(quiz)
    await quiz.service.stop()
    clock.set(FRIDAY_RECAP + timedelta(hours=7))  # the grace window is 6 h
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert recaps(platform) == []
    assert "older than the 6 h grace window; skipped" in caplog.text


async def test_a_recap_skipped_after_downtime_is_warned_about_once_not_at_every_start(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await seed_week(quiz)
    await quiz.service.stop()
    clock.set(FRIDAY_RECAP + timedelta(hours=7))  # the grace window is 6 h
    warnings = []
    for _ in range(3):  # three starts in the days after
        caplog.clear()
        async with running_service(db_path, [platform], clock, catalog) as service:
            await service.settle()
        warnings.append("older than the 6 h grace window; skipped" in caplog.text)
        clock.advance(hours=20)
    assert warnings == [True, False, False]
    assert recaps(platform) == []


async def test_a_missed_recap_of_a_week_without_rounds_is_not_warned_about(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the quiz starts the day after a recap slot: that recap would have had nothing to send,
    # so a restart days later has nothing to warn about (it warned at every start)
    clock.set(FRIDAY_RECAP + timedelta(days=1))
    await quiz.command("now")
    await quiz.service.stop()
    clock.set(FRIDAY_RECAP + timedelta(days=3))
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    assert recaps(platform) == []
    assert "grace window" not in caplog.text


async def test_a_recap_slot_handled_twice_is_recorded_once(quiz: QuizHarness) -> None:
    await seed_week(quiz)
    channel = await channel_settings(quiz)
    quiz.clock.set(FRIDAY_RECAP)
    await quiz.service.recaps.on_slot(channel.id, FRIDAY_RECAP)
    await quiz.service.recaps.catch_up([channel])
    await quiz.service.recaps.on_slot(channel.id, FRIDAY_RECAP)
    await quiz.service.settle()
    assert len(recaps(quiz.platform)) == 1


async def crash_while_sending_the_recap(quiz: QuizHarness, *, after_send: bool) -> ChannelSettings:
    """Seed a week, record its recap, and let the process die while sending it."""
    await seed_week(quiz)
    channel = await channel_settings(quiz)
    quiz.clock.set(FRIDAY_RECAP)
    await quiz.service.recaps.on_slot(channel.id, FRIDAY_RECAP)
    if after_send:
        quiz.platform.crash_after_send = True
    else:
        quiz.platform.failures.append(SimulatedCrash("before send"))
    with pytest.raises(SimulatedCrash):
        await quiz.service.settle()
    await quiz.service.stop()
    quiz.clock.advance(minutes=1)
    return channel


async def test_a_crash_after_posting_the_recap_does_not_post_it_again(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    channel = await crash_while_sending_the_recap(quiz, after_send=True)
    assert len(recaps(platform)) == 1
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
        action = await round_actions(
            service.store,
            await service.store.recaps.last_round_between(
                channel.id, FRIDAY_RECAP - timedelta(days=7), FRIDAY_RECAP
            )
            or 0,
        )
    [sent] = recaps(platform)
    [recap_action] = [a for a in action if a.kind is ActionKind.RECAP]
    assert recap_action.key == recap_key(channel.id, "2026-W49")
    assert recap_action.state.value == "done" and recap_action.result_ref == sent.id


async def test_a_crash_before_posting_the_recap_posts_it_after_restart(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await crash_while_sending_the_recap(quiz, after_send=False)
    assert recaps(platform) == []
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    [sent] = recaps(platform)
    assert sent.card.image is not None  # rendered again from stored data


def test_previous_slot_of_the_default_recap_is_friday() -> None:
    plan = recap_plan(berlin_channel(), RecapSetting())
    assert plan is not None
    assert previous_slot(plan.spec, plan.tz, datetime(2026, 12, 6, tzinfo=UTC)) == datetime(
        2026, 12, 4, 15, 0, tzinfo=UTC
    )
