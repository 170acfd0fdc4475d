"""Blind mode through the core: the Answer form, `/quiz answer`, changes until the reveal,
the posts at the reveal (exactly once across a crash), votes on them and the refusals."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.blind.answers import (
    ANSWER_FIELD,
    ANSWER_FORM,
    NO_OPEN_QUESTION,
    NOT_BLIND,
    STALE_QUESTION,
    THREAD_HINT,
)
from bot.kernel.errors import PlatformError
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.models import AnswerDraft, AnswerMode, AnswerRecord, AnswerResult, Round
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.render import Card, CardKind, Response
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform, SimulatedCrash
from tests.harness import QuizHarness, running_service


async def blind_round(quiz: QuizHarness) -> None:
    await quiz.command("config answers blind")
    await quiz.command("now")


async def press_answer(quiz: QuizHarness, by: str, value: str | None = None) -> Response:
    round_ = await quiz.round()
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, round_.question_message or ""),
            quiz.member(by),
            "answer",
            str(round_.id) if value is None else value,
        )
    )
    assert response is not None
    return response


async def submit(quiz: QuizHarness, by: str, text: str, target: str | None = None) -> Response:
    quiz.clock.advance(seconds=1)
    round_ = await quiz.round()
    response = await quiz.service.handle(
        FormSubmit(
            quiz.event_id(),
            quiz.channel,
            quiz.member(by),
            ANSWER_FORM,
            str(round_.id) if target is None else target,
            {ANSWER_FIELD: text},
        )
    )
    assert response is not None
    return response


async def answers(quiz: QuizHarness) -> list[AnswerRecord]:
    return await quiz.service.round_answers((await quiz.round()).id)


def posted_answers(platform: FakePlatform, thread: str) -> list[Card]:
    return [m.card for m in platform.in_thread(thread) if m.card.title.endswith("'s answer")]


async def test_config_answers_blind_is_stored_and_puts_an_answer_button_on_the_card(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    response = await quiz.command("config answers blind")
    assert response.public and "blind" in response.card.body.lower()
    channel = await quiz.service.engine.store.channels.get_channel(quiz.channel)
    assert channel is not None and channel.answer_mode is AnswerMode.BLIND

    await quiz.command("now")
    [question] = platform.in_channel()
    assert [b.action for b in question.card.buttons] == ["answer", "reveal"]
    assert "/quiz answer" in question.card.footer

    await quiz.command("config answers thread")
    await quiz.command("skip")
    await quiz.command("now")
    assert [b.action for b in platform.in_channel()[-1].card.buttons] == ["reveal"]


async def test_switching_back_to_the_thread_waits_until_no_blind_answer_waits(
    quiz: QuizHarness, platform: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    refused = await quiz.command("config answers thread")
    assert refused.card.kind is CardKind.ERROR
    assert refused.card.body.startswith("Question #1 has 1 blind answer(s) waiting for its reveal")

    await quiz.command("reveal")
    assert (await quiz.command("config answers thread")).public
    await quiz.command("now")
    looked_up: list[int] = []
    store = quiz.service.store
    lookup = store.answers.waiting_blind_answers

    async def spied(round_id: int) -> list[AnswerRecord]:
        looked_up.append(round_id)
        return await lookup(round_id)

    monkeypatch.setattr(store.answers, "waiting_blind_answers", spied)
    await quiz.command("reveal")
    assert quiz.platform.titles(await quiz.thread())[-1] == "Sample answer outline"
    assert looked_up == []  # a thread channel's reveal costs no lookup


async def test_unknown_answer_mode_is_refused_with_the_choices(quiz: QuizHarness) -> None:
    response = await quiz.command("config answers hidden")
    assert response.card.kind is CardKind.ERROR
    assert "thread or blind" in response.card.body


async def test_the_answer_button_opens_a_form_prefilled_with_ones_answer(
    quiz: QuizHarness,
) -> None:
    await blind_round(quiz)
    first = await press_answer(quiz, "alice")
    assert first.form is not None and first.form.kind == ANSWER_FORM
    assert first.form.target == str((await quiz.round()).id)
    assert first.form.fields[0].value == ""

    await submit(quiz, "alice", "shard by head")
    again = await press_answer(quiz, "alice")
    assert again.form is not None and again.form.title == "Change your answer"
    assert again.form.fields[0].value == "shard by head"
    other = await press_answer(quiz, "bob")
    assert other.form is not None and other.form.fields[0].value == ""


async def test_a_submitted_answer_is_stored_scored_and_confirmed_privately_only(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    response = await submit(quiz, "alice", "shard the KV cache by head")

    assert not response.public
    assert response.card.title == "Answer saved (only you see it)"
    assert response.card.fields[0].value == "shard the KV cache by head"
    [stored] = await answers(quiz)
    assert (stored.member_name, stored.text) == ("Alice", "shard the KV cache by head")
    assert stored.before_reveal and stored.scoring and stored.points == 15  # 10 + 5 bonus
    assert platform.in_thread(await quiz.thread()) == []  # nothing public before the reveal


async def test_a_second_answer_replaces_the_first_until_the_reveal(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "first idea")
    changed = await quiz.command("answer better idea", by="alice")

    assert changed.card.title == "Answer changed (only you see it)"
    [stored] = await answers(quiz)
    assert stored.text == "better idea" and stored.points == 15

    await quiz.command("reveal")
    [card] = posted_answers(platform, await quiz.thread())
    assert card.body == "better idea"


async def test_the_reveal_posts_every_blind_answer_oldest_first_then_the_outline(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "bob", "bob's take")
    await quiz.command("answer carol's take", by="carol")
    await submit(quiz, "alice", "alice's take")
    await submit(quiz, "bob", "bob's second take")  # a change keeps bob's place

    await quiz.command("reveal")
    thread = await quiz.thread()
    titles = quiz.platform.titles(thread)
    assert titles == [
        "Follow-up questions",
        "Bob's answer",
        "Carol's answer",
        "Alice's answer",
        "Sample answer outline",
    ]
    bodies = [c.body for c in posted_answers(platform, thread)]
    assert bodies == ["bob's second take", "carol's take", "alice's take"]
    await quiz.service.settle()
    assert quiz.platform.titles(thread) == titles  # posted once


async def test_votes_on_a_posted_answer_count_for_its_author(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "alice's take")
    await quiz.command("reveal")
    [posted] = [
        m for m in platform.in_thread(await quiz.thread()) if m.card.title.endswith("'s answer")
    ]

    await quiz.react("bob", "👍", message_id=posted.id)
    await quiz.react("carol", "👍", message_id=posted.id)
    await quiz.react("alice", "👍", message_id=posted.id)  # one's own: no vote

    [stored] = await answers(quiz)
    assert stored.message_id == posted.id
    assert (stored.votes, stored.points) == (2, 17)


async def test_a_reply_in_the_thread_still_counts_and_its_author_gets_a_private_hint(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await quiz.answer("dave", "typed in the thread")

    [stored] = await answers(quiz)
    assert stored.text == "typed in the thread" and stored.scoring
    assert [(who, card.body) for who, card in platform.told] == [("dave", THREAD_HINT)]

    await quiz.command("reveal")
    assert posted_answers(platform, await quiz.thread()) == []  # it is in the thread already
    await quiz.answer("erin", "after the reveal")
    assert len(platform.told) == 1  # no hint once revealed


async def test_thread_mode_replies_get_no_hint(quiz: QuizHarness, platform: FakePlatform) -> None:
    await quiz.command("now")
    await quiz.answer("dave", "typed in the thread")
    assert platform.told == []


@pytest.mark.parametrize(
    ("setup", "command", "expected"),
    [
        ("config answers thread", "answer my idea", NOT_BLIND),
        ("config answers blind", "answer my idea", NO_OPEN_QUESTION),
    ],
)
async def test_answering_where_it_cannot_be_taken_is_refused_with_the_reason(
    quiz: QuizHarness, setup: str, command: str, expected: str
) -> None:
    await quiz.command(setup)
    response = await quiz.command(command, by="alice")
    assert response.card.kind is CardKind.ERROR
    assert response.card.body == expected


async def test_answering_after_the_reveal_is_refused_and_nothing_is_stored(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "in time")
    await quiz.command("reveal")

    by_command = await quiz.command("answer too late", by="bob")
    by_form = await submit(quiz, "alice", "a change too late")
    by_button = await press_answer(quiz, "carol")
    for refused in (by_command, by_form, by_button):
        assert refused.card.kind is CardKind.ERROR
        assert refused.card.body.startswith("Question #1 is already revealed, so answers are")
        assert refused.form is None
    assert [(a.member_name, a.text) for a in await answers(quiz)] == [("Alice", "in time")]


async def test_an_answer_written_just_after_the_reveal_is_withdrawn_and_refused(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    before = await quiz.round()
    await quiz.command("reveal")
    store = quiz.service.store

    async def as_read_before_the_reveal(channel_id: int) -> Round:
        return before  # the reveal lands between the check and the write

    monkeypatch.setattr(store.rounds, "open_round", as_read_before_the_reveal)
    refused = await quiz.command("answer just too late", by="alice")
    assert refused.card.body.startswith("Question #1 is already revealed, so answers are")
    assert await answers(quiz) == []


async def test_an_answer_button_of_an_older_question_is_refused(quiz: QuizHarness) -> None:
    await blind_round(quiz)
    old = str((await quiz.round()).id)
    await quiz.command("now")
    assert (await press_answer(quiz, "alice", old)).card.body == STALE_QUESTION
    assert (await press_answer(quiz, "alice", "x")).card.body == STALE_QUESTION
    refused = (await submit(quiz, "alice", "idea", target=old)).card.body
    assert refused.startswith(STALE_QUESTION) and refused.endswith("answer:\nidea")  # kept


async def test_an_empty_form_is_refused_on_its_field_and_stores_nothing(
    quiz: QuizHarness,
) -> None:
    await blind_round(quiz)
    response = await submit(quiz, "alice", "   ")
    assert [p.field for p in response.problems] == [ANSWER_FIELD]
    assert await answers(quiz) == []
    assert (await submit(quiz, "alice", "x" * 3001)).problems
    assert (await quiz.command("answer", by="alice")).form is not None  # no text: the form


async def test_an_answer_over_the_limit_is_refused_with_the_limit_and_its_length(
    quiz: QuizHarness,
) -> None:
    """One limit for every way in: the Slack form can pre-fill at most 3,000 characters, so
    a longer answer taken by `/quiz answer` would lose its end when changed in the form."""
    await blind_round(quiz)
    refused = await quiz.command("answer " + "x" * 3001, by="alice")
    assert refused.card.kind is CardKind.ERROR
    assert "at most 3000 characters" in refused.card.body and "3001" in refused.card.body
    [problem] = (await submit(quiz, "alice", "y" * 3500)).problems
    assert problem.field == ANSWER_FIELD
    assert "at most 3000 characters" in problem.message and "3500" in problem.message
    assert await answers(quiz) == []

    await quiz.command("answer " + "z" * 3000, by="alice")  # the limit itself is taken
    [stored] = await answers(quiz)
    assert stored.text == "z" * 3000
    form = (await press_answer(quiz, "alice")).form
    assert form is not None and form.fields[0].max_length == 3000


SendHook = Callable[[str], Awaitable[None]]


def before_reply(monkeypatch: pytest.MonkeyPatch, platform: FakePlatform, hook: SendHook) -> None:
    original = platform.reply

    async def reply(thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        await hook(key)
        return await original(thread, card, key=key)

    monkeypatch.setattr(platform, "reply", reply)


async def three_blind_answers(quiz: QuizHarness) -> list[int]:
    await blind_round(quiz)
    for member in ("alice", "bob", "carol"):
        await submit(quiz, member, f"{member}'s take")
    return [a.id for a in await answers(quiz)]


def keys_sent(platform: FakePlatform, thread: str) -> list[str]:
    return [m.key for m in platform.in_thread(thread)]


async def test_a_crash_between_two_posts_posts_each_answer_exactly_once_after_restart(
    db_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    catalog: Catalog,
    quiz: QuizHarness,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids = await three_blind_answers(quiz)

    async def crash_after_bobs(key: str) -> None:
        if key.endswith(f":{ids[1]}"):
            platform.crash_after_send = True  # sent, then the process dies before recording

    before_reply(monkeypatch, platform, crash_after_bobs)
    with pytest.raises(SimulatedCrash):
        await quiz.command("reveal")
    thread = await quiz.thread()
    action = "round:1:blind_answer"
    assert keys_sent(platform, thread) == [
        "round:1:follow_ups",
        f"{action}:{ids[0]}",
        f"{action}:{ids[1]}",
    ]
    await quiz.service.stop()

    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
        stored = await service.round_answers(1)
    assert keys_sent(platform, thread) == [
        "round:1:follow_ups",
        *(f"{action}:{answer_id}" for answer_id in ids),
        "round:1:outline",
    ]
    by_key = {m.key: m.id for m in platform.in_thread(thread)}
    assert [a.message_id for a in stored] == [by_key[f"{action}:{i}"] for i in ids]


async def test_a_failed_post_is_retried_without_posting_the_earlier_answers_again(
    quiz: QuizHarness, platform: FakePlatform, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await three_blind_answers(quiz)
    failed: list[str] = []

    async def fail_carols_once(key: str) -> None:
        if key.endswith(f":{ids[2]}") and not failed:
            failed.append(key)
            raise PlatformError("server error")

    before_reply(monkeypatch, platform, fail_carols_once)
    await quiz.command("reveal")
    thread = await quiz.thread()
    assert quiz.platform.titles(thread) == ["Follow-up questions", "Alice's answer", "Bob's answer"]

    clock.advance(minutes=5)
    await quiz.service.settle()
    assert quiz.platform.titles(thread) == [
        "Follow-up questions",
        "Alice's answer",
        "Bob's answer",
        "Carol's answer",
        "Sample answer outline",
    ]


async def test_an_answer_written_while_the_reveal_posts_is_refused_not_left_unposted(
    quiz: QuizHarness, platform: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    await blind_round(quiz)
    await submit(quiz, "alice", "in time")
    store = quiz.service.store
    record_answer = store.answers.record_answer

    async def revealed_and_posted_meanwhile(draft: AnswerDraft) -> AnswerResult:
        # bob's answer took its time before the write (its clock read is older than the
        # reveal): meanwhile the reveal came and the outbox posted the waiting answers
        await quiz.command("reveal")
        return await record_answer(draft)

    monkeypatch.setattr(store.answers, "record_answer", revealed_and_posted_meanwhile)
    refused = await quiz.command("answer bob's take", by="bob")
    assert refused.card.body.startswith("Question #1 is already revealed, so answers are")
    assert [(a.member_name, a.text) for a in await answers(quiz)] == [("Alice", "in time")]
    assert [c.body for c in posted_answers(platform, await quiz.thread())] == ["in time"]
