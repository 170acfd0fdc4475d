"""Replicas on one store ask and post the same question bank: a suggestion approved, or a
question corrected, through one replica is what every other one uses, at once (PostgreSQL
tells them), with the minute's check as the safety net, and a replica that meets a
question it has not heard of reads the bank again before giving up (on both backends:
SQLite with two services on one file)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.bank.catalog import workspace_of
from bot.bank.store import Override, Workspace
from bot.kernel.models import ActionState, ChannelSettings
from bot.kernel.refs import ChannelRef, MemberRef
from questions.catalog import QuestionKey
from questions.pack import Question
from tests.core.bank.test_suggestions import GOOD, submit, suggest
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS, open_store
from tests.storage.replica_pair import drop_listener, sync_of, two_replicas, until
from tests.store_reads import round_actions

T0 = datetime(2031, 1, 15, 6, 0, tzinfo=UTC)


async def deaf(quiz: QuizHarness) -> None:
    """The replica hears of no change from now on (a notice on its way, a lost listener):
    only what it reads itself tells it."""
    if quiz.service.channel_sync is not None:
        await quiz.service.channel_sync.stop()


async def approve_a_kv_cache_question(quiz: QuizHarness) -> None:
    await suggest(quiz)
    approved = await quiz.command("review approve s1")
    assert approved.card.title == "Approved #s1"


def knows_the_approved_question(quiz: QuizHarness) -> bool:
    return "kv-cache" in quiz.service.engine.questions.topics(workspace_of(quiz.channel))


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_round_of_a_question_approved_on_another_replica_is_posted(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        await deaf(b)
        await approve_a_kv_cache_question(a)
        await a.command("now kv-cache", settle=False)  # a recorded it, b's outbox sends it

        await b.service.settle()

        round_ = await a.round()
        failed = [
            (action.key, action.last_error)
            for action in await round_actions(b.service.store, round_.id)
            if action.state is ActionState.FAILED
        ]
        assert failed == [], "replica b gave up on a question it had not heard of"
        assert pair.platform.in_channel()[-1].card.body == GOOD["question"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_replica_that_had_not_heard_of_an_approved_topic_asks_it(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        await deaf(b)
        await approve_a_kv_cache_question(a)

        posted = await b.command("now kv-cache")

        assert posted.card.title == "Posting question #2.", posted.card.body
        assert pair.platform.in_channel()[-1].card.body == GOOD["question"]


async def test_an_approval_on_one_replica_is_heard_by_the_other_at_once(tmp_path: Path) -> None:
    async with two_replicas("postgres", tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        assert not knows_the_approved_question(b)

        await approve_a_kv_cache_question(a)

        assert await until(lambda: knows_the_approved_question(b)), (
            "replica b never heard of the question a approved"
        )
        [own] = await b.service.store.bank.own_questions()
        assert b.service.engine.question_for(b.channel, own.question_id) == own.question


async def test_a_correction_saved_on_one_replica_is_the_outline_the_other_posts(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        round_ = await a.round()
        await a.command("flag the outline is wrong about memory", by="bob")
        opened = await a.command("review edit f1")
        assert opened.form is not None
        values = {f.name: f.value for f in opened.form.fields}
        saved = await submit(
            a,
            "edit_question",
            {**values, "outline": "The corrected outline."},
            by="admin",
            target=opened.form.target,
        )
        assert "bundled pack file is unchanged" in saved.card.body

        def corrected() -> bool:
            shown = b.service.engine.question_for(b.channel, round_.question_id)
            return shown is not None and shown.outline == "The corrected outline."

        await until(corrected)
        await b.command("reveal")

        outline = pair.platform.in_thread(await b.thread())[-1].card
        assert outline.body == "The corrected outline.", "replica b posted the uncorrected outline"


async def test_a_bank_change_missed_while_not_listening_arrives_with_the_check(
    tmp_path: Path,
) -> None:
    async with two_replicas("postgres", tmp_path) as pair:
        a, b = pair.a, pair.b
        await a.command("now")
        await sync_of(b).reconcile()  # b has read the channel a set up
        await drop_listener(pair)
        await approve_a_kv_cache_question(a)  # its notice is lost
        assert not knows_the_approved_question(b)

        assert await sync_of(b).reconcile() == 1  # the minute's check

        assert knows_the_approved_question(b)
        assert sync_of(b).listening
        assert await sync_of(b).reconcile() == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_question_s_stored_texts_are_its_own_row_and_each_workspace_s_override(
    backend: str, tmp_path: Path
) -> None:
    """What a replica reads again of one question (``stored_question``), and of one
    workspace (``overrides(workspace)``), on both backends."""
    async with open_store(backend, tmp_path) as store:
        ids = await store.rounds.sync_questions([QuestionKey("p", "q1", "gpu", "h")])
        bundled = ids[("p", "q1")]
        one, two = Workspace("slack", "T1"), Workspace("slack", "T2")
        member = await store.members.member_id(MemberRef("slack", "T1", "U1", "Ann"))
        channel = await store.channels.create_channel(
            ChannelSettings(0, ChannelRef("slack", "T1", "C1"), "UTC")
        )
        fixed = Question(id="q1", topic="gpu", question="Fixed?", outline="Fixed.")
        for space in (one, two):
            await store.bank.save_override(Override(bundled, space, fixed), member_id=member, at=T0)
        suggested = await store.bank.add_suggestion(
            one, channel.id, member, Question(id="s", topic="kv", question="KV?", outline="."), T0
        )
        approval = await store.bank.approve_suggestion(
            suggested,
            Question(id="own", topic="kv", question="KV?", outline="."),
            decided_by=member,
            at=T0,
            bonus_points=0,
        )
        assert approval is not None

        stored = await store.bank.stored_question(bundled)
        assert stored.own is None
        assert [(o.workspace, o.question.outline) for o in stored.overrides] == [
            (one, "Fixed."),
            (two, "Fixed."),
        ]
        own = await store.bank.stored_question(approval.question_id)
        assert own.own is not None and own.own.workspace == one and own.overrides == ()
        assert own.own.question.id == "own"
        nothing = await store.bank.stored_question(bundled + 1000)
        assert (nothing.own, nothing.overrides) == (None, ())
        assert [o.workspace for o in await store.bank.overrides(two)] == [two]
        assert len(await store.bank.overrides()) == 2
