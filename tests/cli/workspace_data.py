"""A workspace with one approved question of its own and one flag, on any store backend."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.bank.store import Workspace
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from questions.catalog import QuestionKey
from questions.pack import FollowUp, Question
from storage.database import AnyStore

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


async def approved_question_and_flag(
    store: AnyStore, *, member: str = "Alice", reason: str = "40 GB, not 80"
) -> None:
    """Workspace slack:T1 approved the question kv-size-s1; ``member`` flagged round #1."""
    question = Question(
        id="kv-size-s1",
        topic="kv-cache",
        question="How large is the KV cache?",
        outline="Per token: 2 x layers x KV heads x head dim x bytes.",
        follow_ups=(FollowUp(ask="What does GQA change?", notes="Divides it.\nQuality holds."),),
        key_points=("the formula", "GQA", "linear in context"),
    )
    channel = await store.channels.create_channel(
        ChannelSettings(0, ChannelRef("slack", "T1", "C1"), "UTC")
    )
    alice = await store.members.member_id(MemberRef("slack", "T1", "U1", member))
    space = Workspace("slack", "T1")
    suggestion = await store.bank.add_suggestion(space, channel.id, alice, question, AT)
    approval = await store.bank.approve_suggestion(
        suggestion, question, decided_by=alice, at=AT, bonus_points=20
    )
    assert approval is not None
    ids = await store.rounds.sync_questions([QuestionKey("ai-infra", "q1", "gpu", "h")])
    round_ = await store.rounds.create_round(
        channel.id,
        lambda _counts: ids[("ai-infra", "q1")],
        AT,
        scheduled=False,
        created_at=AT,
        actions=[ActionKind.QUESTION],
    )
    assert round_ is not None
    await store.bank.add_flag(space, channel.id, round_.id, alice, reason, AT)
