"""Defects found in review, each pinned by a test."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.kernel.events import Command, Reply
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.fakes import FakePlatform
from tests.harness import QuizHarness
from tests.store_reads import question_ask_counts


async def test_a_failing_round_does_not_let_the_next_pass_send_twice(
    quiz: QuizHarness, platform: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_channel = ChannelRef(platform.name, "team", "C-slow", "slow")
    release = asyncio.Event()
    real_post = platform.post

    async def slow_post(channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        if channel == slow_channel:
            await release.wait()
        return await real_post(channel, card, key=key)

    monkeypatch.setattr(platform, "post", slow_post)
    store = quiz.service.store
    real_complete = store.outbox.complete_action
    failed: list[int] = []

    async def complete_failing_once(action_id: int, result: str | None, at: datetime) -> None:
        action = (await store.outbox.due_actions(at, limit=1000)) or []
        if not failed and any(a.id == action_id and a.round_id == 2 for a in action):
            failed.append(action_id)
            raise RuntimeError("database hiccup")
        await real_complete(action_id, result, at)

    monkeypatch.setattr(store.outbox, "complete_action", complete_failing_once)
    admin = quiz.member("admin")
    await quiz.service.handle(Command("c1", slow_channel, admin, "now"))  # round 1, slow
    await quiz.service.handle(Command("c2", quiz.channel, admin, "now"))  # round 2, fails once
    first_pass = asyncio.create_task(quiz.service.outbox.run_due())
    for _ in range(50):
        await asyncio.sleep(0)
    second_pass = asyncio.create_task(quiz.service.outbox.run_due())
    for _ in range(50):
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first_pass, second_pass)
    await quiz.service.settle()
    assert failed, "the injected failure happened"
    slow_questions = [m for m in platform.messages if m.key == "round:1:question"]
    assert len(slow_questions) == 1


async def test_channels_of_a_platform_not_running_get_no_rounds_and_block_nothing(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    store = quiz.service.store
    absent = await store.channels.create_channel(
        ChannelSettings(0, ChannelRef("slack", "T1", "C9"), "UTC", schedule="daily 09:00")
    )
    slot = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    await quiz.service.post_slot(absent.id, slot)
    assert await store.rounds.latest_round(absent.id) is None
    # rounds left over from a run when that platform was up do not hold up the others
    question_ids = await question_ask_counts(store, absent.id)
    assert question_ids == {}
    for day in range(3):
        await store.rounds.create_round(
            absent.id,
            lambda _: 1,
            datetime(2026, 11, 1 + day, 9, tzinfo=UTC),
            scheduled=True,
            created_at=quiz.clock.now(),
            actions=[ActionKind.QUESTION],
        )
    await quiz.command("now")
    assert [m.card.title for m in platform.in_channel()] == ["Question #1"]
    kept = await store.outbox.due_actions(quiz.clock.now())  # kept for when slack is back
    # each question, and the outline of the two rounds the next question closed
    assert sorted(a.kind.value for a in kept) == sorted(
        ["question"] * 3 + ["follow_ups", "outline"] * 2
    )


async def test_a_timezone_typed_in_lower_case_is_stored_canonically(quiz: QuizHarness) -> None:
    response = await quiz.command("schedule weekdays 09:30 europe/berlin")
    assert "(Europe/Berlin)" in response.card.body
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.timezone == "Europe/Berlin"
    board = await quiz.command("leaderboard", by="alice")
    assert "Leaderboard" in board.card.title


async def test_follow_ups_come_with_the_reveal_after_the_policy_changed_mid_round(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("config followups with_reveal")
    await quiz.command("now gpu")
    await quiz.command("config followups immediately")
    await quiz.answer("alice", "answer")
    await quiz.react("alice", "💡")
    assert await quiz.thread_titles() == ["Follow-up questions", "Sample answer outline"]


async def test_votes_on_a_later_reply_earn_nothing(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "first")
    extra = await quiz.answer("alice", "and another thing")
    for voter in ("bob", "carol"):
        await quiz.react(voter, "👍", message_id=extra)
    answers = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert [(a.text, a.votes, a.points) for a in answers] == [
        ("first", 0, 15),
        ("and another thing", 2, 0),
    ]


async def test_an_edit_after_the_round_closed_still_updates_the_text(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first_round = await quiz.round()
    message = await quiz.answer("alice", "typo")
    await quiz.command("now")
    assert first_round.thread is not None
    await quiz.service.handle(
        Reply(
            "edit-1",
            quiz.channel,
            ThreadRef(quiz.channel, first_round.thread),
            MessageRef(quiz.channel, message),
            quiz.member("alice"),
            "fixed",
            edited=True,
        )
    )
    [answer] = await quiz.service.store.answers.round_answers(first_round.id)
    assert answer.text == "fixed"


async def test_disabling_a_channel_keeps_settings_changed_meanwhile(quiz: QuizHarness) -> None:
    await quiz.command("now")
    [stale] = await quiz.service.store.channels.list_channels()
    await quiz.command("schedule daily 07:00")
    await quiz.service.disable_channel(stale, "channel_not_found")
    [channel] = await quiz.service.store.channels.list_channels()
    assert (channel.schedule, channel.disabled_reason) == ("daily 07:00", "channel_not_found")
