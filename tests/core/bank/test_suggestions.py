"""Suggestions from chat, their review, errata flags and edits, through the FakePlatform."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path

from bot.bank.catalog import workspace_of
from bot.bank.moderation_cards import APPROVE_ACTION, EDIT_ACTION, REJECT_ACTION
from bot.bank.store import Workspace
from bot.kernel.config import QuizConfig
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.refs import ChannelRef, MessageRef
from bot.kernel.render import Response
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness, running_service

GOOD = {
    "topic": "kv-cache",
    "question": "How large is the KV cache of a 70B model at 32k tokens of context?",
    "outline": "2 x layers x KV heads x head dim x 2 bytes per token; with GQA about 0.3 MB.",
    "follow_ups": "What does paged attention change?\nWhy does GQA help?",
    "key_points": "the per-token formula\nGQA divides it by the group size\nlinear in context",
}


async def submit(
    quiz: QuizHarness,
    kind: str,
    values: Mapping[str, str],
    *,
    by: str = "alice",
    target: str = "",
    channel: ChannelRef | None = None,
) -> Response:
    response = await quiz.service.handle(
        FormSubmit(
            quiz.event_id(), channel or quiz.channel, quiz.member(by), kind, target, dict(values)
        )
    )
    assert response is not None
    return response


async def press(quiz: QuizHarness, action: str, value: str, *, by: str = "admin") -> Response:
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, "review-message"),
            quiz.member(by),
            action,
            value,
        )
    )
    assert response is not None
    return response


async def suggest(quiz: QuizHarness, values: Mapping[str, str] = GOOD) -> str:
    opened = await quiz.command("suggest", by="alice")
    assert opened.form is not None and opened.form.kind == "suggest"
    assert [f.name for f in opened.form.fields] == [
        "topic",
        "question",
        "outline",
        "follow_ups",
        "key_points",
    ]
    response = await submit(quiz, "suggest", values)
    assert not response.problems, response.card.body
    assert "Suggestion #s1" in response.card.body
    return "s1"


async def test_suggestion_approved_joins_rotation_and_pays_the_bonus(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)

    queue = await quiz.command("review")
    assert "#s1 by Alice" in queue.card.body
    assert GOOD["question"] in queue.card.body
    assert [(b.action, b.value) for b in queue.card.buttons] == [
        (APPROVE_ACTION, "s1"),
        (EDIT_ACTION, "s1"),
        (REJECT_ACTION, "s1"),
    ]

    approved = await press(quiz, APPROVE_ACTION, "s1")
    assert approved.card.title == "Approved #s1"
    told = [card for member, card in quiz.platform.told if member == "alice"]
    assert told[-1].title == "Your question was approved"
    assert "+20 points" in told[-1].body

    board = await quiz.command("leaderboard", by="bob")
    assert "Alice — 20 pts" in board.card.body
    assert "kv-cache" in (await quiz.command("topics", by="bob")).card.body

    posted = await quiz.command("now kv-cache")
    assert posted.card.title == "Posting question #2."
    assert quiz.platform.in_channel()[-1].card.body == GOOD["question"]
    reveal = await quiz.command("reveal")
    assert reveal.card.title.startswith("Revealing")
    outline = quiz.platform.in_thread(await quiz.thread())[-1].card
    assert outline.body.startswith(GOOD["outline"])
    assert "☐ GQA divides it by the group size" in outline.body
    assert "Nothing to review" in (await quiz.command("review")).card.body


async def test_approved_question_is_asked_in_every_channel_of_the_workspace_only(
    db_path: Path, clock: FakeClock, catalog: Catalog, config: QuizConfig
) -> None:
    platform = FakePlatform()
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        quiz = QuizHarness(service, platform, clock)
        await quiz.command("now")
        await suggest(quiz)
        await quiz.command("review approve s1")
        own = {q.question.question for q in await service.store.bank.own_questions()}
        assert own == {GOOD["question"]}
        # each channel of the workspace is asked every question once before any repeats
        other = QuizHarness(
            service, platform, clock, ChannelRef("fake", "team", "C2"), itertools.count(100)
        )
        asked = []
        for _ in range(6):
            await other.command("now")
            asked.append(platform.in_channel()[-1].card.body)
        assert GOOD["question"] in asked
        elsewhere = QuizHarness(
            service, platform, clock, ChannelRef("fake", "other-team", "C9"), itertools.count(200)
        )
        for _ in range(6):
            await elsewhere.command("now")
            assert platform.in_channel()[-1].card.body != GOOD["question"]
    # after a restart the workspace question is still in rotation, under the same id
    async with running_service(db_path, [platform], clock, catalog, config) as service:
        quiz = QuizHarness(service, platform, clock, _events=itertools.count(300))
        assert "kv-cache" in (await quiz.command("topics")).card.body
        await quiz.command("now kv-cache")
        assert platform.in_channel()[-1].card.body == GOOD["question"]


async def test_rejection_with_a_reason_tells_the_suggester(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)
    form = await press(quiz, REJECT_ACTION, "s1")
    assert form.form is not None and form.form.kind == "reject"
    rejected = await submit(
        quiz, "reject", {"reason": "already covered by attention-1"}, by="admin", target="s1"
    )
    assert rejected.card.title == "Rejected #s1"
    told = [card for member, card in quiz.platform.told if member == "alice"][-1]
    assert told.title == "Your suggestion was not accepted"
    assert "Reason: already covered by attention-1" in told.body
    again = await quiz.command("review approve s1")
    assert again.card.body == "" and "already rejected" in again.card.title
    assert "Alice" not in (await quiz.command("leaderboard")).card.body


async def test_text_rejection_and_bad_items(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)
    assert "not a review item" in (await quiz.command("review approve x1")).card.body
    assert "no suggestion #s9" in (await quiz.command("review reject s9")).card.body
    missing = await quiz.command("review approve")
    assert "Name at least one item" in missing.card.body
    rejected = await quiz.command("review reject 1 too vague")
    assert rejected.card.title == "Rejected #s1"
    assert "Reason: too vague" in quiz.platform.told[-1][1].body


async def test_a_bad_form_names_the_field_and_keeps_the_input(quiz: QuizHarness) -> None:
    await quiz.command("now")
    bad = {**GOOD, "topic": "KV Cache", "key_points": "only one point", "outline": "  "}
    response = await submit(quiz, "suggest", bad)
    fields = {p.field: p.message for p in response.problems}
    assert set(fields) == {"topic", "outline", "key_points"}
    assert "must be lowercase letters and digits" in fields["topic"]
    assert fields["outline"] == "outline: must not be empty"
    assert fields["key_points"] == "key_points: give 3 to 7 key points, not 1"
    assert "KV Cache" in response.card.body and GOOD["question"] in response.card.body
    assert await quiz.service.store.bank.pending_suggestions(_space(quiz)) == []
    # the same submission, fixed, is accepted (a refused form is not a duplicate)
    fixed = await submit(quiz, "suggest", GOOD)
    assert not fixed.problems


async def test_edit_a_suggestion_before_approving_it(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)
    opened = await press(quiz, EDIT_ACTION, "s1")
    assert opened.form is not None and opened.form.kind == "edit_suggestion"
    assert {f.name: f.value for f in opened.form.fields}["topic"] == "kv-cache"
    edited = await submit(
        quiz, "edit_suggestion", {**GOOD, "topic": "inference"}, by="admin", target="s1"
    )
    assert edited.card.title == "Suggestion #s1" and "Topic: inference" in edited.card.body
    await quiz.command("review approve s1")
    own = await quiz.service.store.bank.own_questions()
    assert [q.question.topic for q in own] == ["inference"]


async def test_flag_then_edit_a_bundled_question_stores_an_override(quiz: QuizHarness) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    flagged = await quiz.command("flag the outline is wrong about memory", by="bob")
    assert flagged.card.title == "Thanks: flagged" and "#f1" in flagged.card.body
    queue = await quiz.command("review")
    assert "#f1 on question #1" in queue.card.body and "the outline is wrong" in queue.card.body
    opened = await press(quiz, EDIT_ACTION, "f1")
    assert opened.form is not None and opened.form.kind == "edit_question"
    values = {f.name: f.value for f in opened.form.fields}
    key = quiz.service.engine.questions.question(_space(quiz), round_.question_id)
    assert key is not None and values["outline"] == key.outline
    saved = await submit(
        quiz,
        "edit_question",
        {**values, "outline": "The corrected outline."},
        by="admin",
        target=opened.form.target,
    )
    assert "bundled pack file is unchanged" in saved.card.body and "1 flag(s)" in saved.card.body
    assert "Nothing to review" in (await quiz.command("review")).card.body
    # this workspace's rounds show the override; the catalog keeps the pack's text
    shown = quiz.service.engine.question_for(quiz.channel, round_.question_id)
    assert shown is not None and shown.outline == "The corrected outline."
    original = quiz.service.engine.catalog.get("sample", shown.id)
    assert original is not None and original.question.outline != "The corrected outline."
    other = quiz.service.engine.question_for(
        ChannelRef("fake", "other-team", "C9"), round_.question_id
    )
    assert other == original.question
    await quiz.command("reveal")
    outline = quiz.platform.in_thread(await quiz.thread())[-1].card
    assert outline.body == "The corrected outline."
    overrides = await quiz.service.store.bank.overrides()
    assert [o.question.outline for o in overrides] == ["The corrected outline."]


async def test_edit_a_workspace_question_in_place(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)
    await quiz.command("review approve s1")
    await quiz.command("now kv-cache")
    await quiz.command("flag 0.3 MB is per token per layer?", by="bob")
    opened = await quiz.command("review edit f1")
    assert opened.form is not None
    values = {f.name: f.value for f in opened.form.fields}
    saved = await submit(
        quiz, "edit_question", {**values, "outline": "Fixed."}, by="admin", target="999"
    )
    assert "no longer in any pack" in saved.card.body  # a wrong target changes nothing
    saved = await submit(
        quiz,
        "edit_question",
        {**values, "outline": "Fixed."},
        by="admin",
        target=opened.form.target,
    )
    assert "edited in this workspace's questions" in saved.card.body
    own = await quiz.service.store.bank.own_questions()
    assert [q.question.outline for q in own] == ["Fixed."]
    assert await quiz.service.store.bank.overrides() == []
    flags = await quiz.service.store.bank.flags(open_only=False)
    assert [f.resolution for f in flags] == ["question edited"]


async def test_dismiss_a_flag(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.command("flag typo", by="bob")
    dismissed = await quiz.command("review reject f1 not a mistake")
    assert dismissed.card.title == "Flag #f1 dismissed"
    flags = await quiz.service.store.bank.flags(open_only=False)
    assert [f.resolution for f in flags] == ["dismissed: not a mistake"]
    assert "approved" in (await quiz.command("review approve f1")).card.body


async def test_member_refusals(quiz: QuizHarness) -> None:
    assert "No quiz here yet" in (await quiz.command("flag typo", by="bob")).card.title
    await quiz.command("skip")  # the admin's command creates the quiz; still no round
    no_round = await quiz.command("flag typo", by="bob")
    assert no_round.card.body == "There is no round in this channel to flag yet."
    await quiz.command("now")
    empty = await quiz.command("flag", by="bob")
    assert empty.card.body.startswith("Say what is wrong")
    assert await quiz.service.store.bank.flags() == []

    await suggest(quiz)
    for text in ("review", "review approve s1", "review reject s1 no"):
        refused = await quiz.command(text, by="bob")
        assert "needs a quiz admin" in refused.card.body
    refused = await press(quiz, APPROVE_ACTION, "s1", by="bob")
    assert "needs a quiz admin" in refused.card.body
    forged = await submit(quiz, "reject", {"reason": "mine now"}, by="bob", target="s1")
    assert "needs a quiz admin" in forged.card.body
    pending = await quiz.service.store.bank.pending_suggestions(_space(quiz))
    assert [s.id for s in pending] == [1]


def _space(quiz: QuizHarness) -> Workspace:
    return workspace_of(quiz.channel)


async def test_a_near_duplicate_of_an_existing_question_is_refused(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await suggest(quiz)
    await quiz.command("review approve s1")
    reworded = {
        **GOOD,
        "question": "For a 70B model at 32k tokens of context, how large is the KV cache?",
    }
    refused = await submit(quiz, "suggest", reworded)
    [problem] = refused.problems
    assert problem.field == "question"
    assert "nearly the same as the existing question 'how-large-is-the-kv-cache" in problem.message
    assert reworded["question"] in refused.card.body  # the input is kept
    bundled = {**GOOD, "question": "Question gpu-1?"}  # a bundled question's text
    assert [p.field for p in (await submit(quiz, "suggest", bundled)).problems] == ["question"]
    assert await quiz.service.store.bank.pending_suggestions(_space(quiz)) == []


async def test_packs_lists_the_workspace_s_own_pack_with_its_count(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    before = (await quiz.command("packs", by="bob")).card.body
    assert "sample — Sample pack (5 questions" in before
    assert "this workspace — its own questions (none yet: `/quiz suggest` one)" in before
    await suggest(quiz)
    await quiz.command("review approve s1")
    after = (await quiz.command("packs", by="bob")).card.body.splitlines()
    assert "this workspace — its own questions (1 question; topics: kv-cache)" in after
    elsewhere = QuizHarness(
        quiz.service,
        quiz.platform,
        quiz.clock,
        ChannelRef("fake", "other-team", "C9"),
        itertools.count(200),
    )
    theirs = (await elsewhere.command("packs", by="bob")).card.body
    assert "its own questions (none yet" in theirs


async def test_suggest_in_a_channel_without_a_quiz_says_where_to_suggest(
    quiz: QuizHarness,
) -> None:
    for who in ("alice", "admin"):
        opened = await quiz.command("suggest", by=who)
        assert opened.form is None  # no form to fill in for nothing
        assert opened.card.title == "Suggest from a quiz channel"
        assert "run `/quiz suggest` in a channel of this workspace that has a quiz" in (
            opened.card.body
        )
        assert "start one here first with `/quiz now`" in opened.card.body
    # a suggestion form submitted here anyway (e.g. a modal left open) gets the same answer
    submitted = await submit(quiz, "suggest", GOOD)
    assert submitted.card.title == "Suggest from a quiz channel"
    assert await quiz.service.store.bank.pending_suggestions(_space(quiz)) == []
    assert await quiz.service.engine.channel(quiz.channel) is None  # no quiz was started
