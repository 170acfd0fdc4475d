"""A NUL character in what a member types (an answer, its edit, a ``/quiz flag`` reason, a
``/quiz rate`` comment, a review form's comment, their display name) is stored on both
backends as U+FFFD, the replacement character: PostgreSQL refuses a NUL in text, which
made the answer unsaved (answered 503, then dropped by Slack) and the command "Something
went wrong". So is a lone surrogate, which neither backend can encode."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.kernel.events import FormSubmit, Reply
from bot.kernel.refs import MemberRef, MessageRef, ThreadRef
from bot.kernel.render import CardKind
from bot.kernel.storable_text import storable_event
from bot.rounds.cards import REVIEW_ACTION
from questions.catalog import Catalog
from tests.core.test_peer_reviews import catalog_with_key_points, press
from tests.harness import CHANNEL, QuizHarness

NUL = "\x00"
SHOWN = "\ufffd"  # what is stored and shown in its place


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def answer_texts(quiz: QuizHarness) -> list[str]:
    return [a.text for a in await quiz.service.round_answers((await quiz.round()).id)]


async def test_an_answer_and_its_edit_keep_a_nul_as_the_replacement_character(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")

    message = await quiz.answer("ann", f"the ring{NUL}all-reduce")

    assert await answer_texts(quiz) == [f"the ring{SHOWN}all-reduce"]
    await quiz.edit("ann", message, f"the ring, then{NUL}{NUL} the tree")
    assert await answer_texts(quiz) == [f"the ring, then{SHOWN}{SHOWN} the tree"]


async def test_a_lone_surrogate_in_an_answer_is_the_replacement_character(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")

    await quiz.answer("ann", "half an emoji: \ud83d")

    assert await answer_texts(quiz) == [f"half an emoji: {SHOWN}"]


async def test_a_display_name_with_a_nul_is_stored(quiz: QuizHarness) -> None:
    await quiz.command("now")
    thread = await quiz.thread()
    await quiz.service.handle(
        Reply(
            quiz.event_id(),
            quiz.channel,
            ThreadRef(quiz.channel, thread),
            MessageRef(quiz.channel, "m1"),
            MemberRef(quiz.platform.name, quiz.channel.workspace, "ann", f"Ann{NUL}"),
            "my answer",
        )
    )
    [stored] = await quiz.service.round_answers((await quiz.round()).id)
    assert stored.member_name == f"Ann{SHOWN}"


async def test_a_flag_a_review_and_a_review_form_keep_a_nul_as_the_replacement_character(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "ann's answer about the ring")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)

    flagged = await quiz.command(f"flag the outline{NUL}is wrong", by="bob")
    rated = await quiz.command(f"rate #1 3 clear{NUL}ring", by="bob")
    form = (await press(quiz, "dan", REVIEW_ACTION, f"r{round_.id}")).form
    assert form is not None
    sent = await quiz.service.handle(
        FormSubmit(
            quiz.event_id(),
            quiz.channel,
            quiz.member("dan"),
            form.kind,
            form.target,
            {"answer": "1", "score": "4", "comment": f"{NUL}thorough"},
        )
    )

    assert flagged.card.kind is not CardKind.ERROR, flagged.card.body
    assert rated.card.kind is not CardKind.ERROR, rated.card.body
    assert sent is not None and sent.card.kind is not CardKind.ERROR, sent
    [flag] = await quiz.service.store.bank.flags()
    assert flag.reason == f"the outline{SHOWN}is wrong"
    [answer] = await quiz.service.round_answers(round_.id)
    reviews = await quiz.service.store.reviews.answer_reviews(answer.id)
    assert sorted(r.comment or "" for r in reviews) == [f"clear{SHOWN}ring", f"{SHOWN}thorough"]


def test_an_event_with_nothing_to_replace_is_the_same_event() -> None:
    member = MemberRef("fake", "team", "ann", "Ann")
    form = FormSubmit("ev1", CHANNEL, member, "review", "r1", {"comment": "fine"})
    assert storable_event(form) is form
    replaced = storable_event(replace(form, values={"comment": f"fine{NUL}", "score": "4"}))
    assert replaced.values == {"comment": f"fine{SHOWN}", "score": "4"}
    assert replaced.member is member
