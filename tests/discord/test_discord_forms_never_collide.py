"""Discord forms (modals) never collide and never lose what a member typed.

Every member gets a form of their own: two members with the same form open (the blind
answer, a suggestion, an admin's edit or rejection) each have their submission taken.
A form carries in its custom id what its submission needs, so it is taken after a
restart too; one that cannot be routed is answered with what the member wrote."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.bank.store import Workspace
from bot.kernel.events import FormSubmit
from bot.kernel.forms import Form, FormField
from bot.kernel.render import Card, Response
from tests.discord.conftest import (
    PlatformFactory,
    Recorder,
    button_payload,
    command_payload,
    eventually,
    modal_submit_payload,
)
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    EPHEMERAL,
    LEAD,
    Quiz,
    quiz,
)

ADA = 730000000000000005  # a second admin
MODAL = 9  # InteractionResponseType.modal
CUSTOM_ID_LIMIT = 100

Json = dict[str, Any]


def question_values(number: int) -> dict[str, str]:
    asks = [
        "How large is the KV cache of a 70B model at 32k tokens of context?",
        "Why does ring all-reduce send 2(n-1)/n of the data per GPU?",
        "When does tensor parallelism stop paying off across nodes?",
    ]
    return {
        "topic": "kv-cache-sizing",
        "question": asks[number],
        "outline": "2 x 80 layers x 8 KV heads x 128 x 2 bytes = 320 KiB per token.",
        "follow_ups": "What does paged attention change?",
        "key_points": "the per-token formula\nGQA divides it\nlinear in context",
    }


def replies_to(fake: FakeDiscord, payload: Json) -> list[Json]:
    """The bot's answers to one interaction: its callback and its follow-ups."""
    return [
        reply
        for reply in fake.interaction_replies
        if reply.get("interaction") == int(payload["id"]) or reply.get("token") == payload["token"]
    ]


def text_of(reply: Json) -> str:
    body = reply.get("data", reply)
    parts = []
    for embed in body.get("embeds") or []:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def open_form(quiz: Quiz, payload: Json) -> Json:  # noqa: F811
    """Send a command or button press that answers with a form; returns the modal."""
    await quiz.fake.dispatch("INTERACTION_CREATE", payload)
    await eventually(lambda: any(r.get("type") == MODAL for r in replies_to(quiz.fake, payload)))
    modals: list[Json] = [
        r["data"] for r in replies_to(quiz.fake, payload) if r.get("type") == MODAL
    ]
    [modal] = modals
    return modal


async def submit(quiz: Quiz, user: int, custom_id: str, values: dict[str, str]) -> str:  # noqa: F811
    """Submit a form as ``user``; returns the text of the private answer to it."""
    payload = modal_submit_payload(quiz.fake, user, custom_id, values)
    await quiz.fake.dispatch("INTERACTION_CREATE", payload)

    def answered() -> bool:
        return any(text_of(r) for r in replies_to(quiz.fake, payload))

    try:
        await eventually(answered, within=3.0)
    except TimeoutError:
        pytest.fail(f"the form {custom_id!r} submitted by {user} got no answer: dropped")
    [answer] = [r for r in replies_to(quiz.fake, payload) if text_of(r)]
    assert answer.get("data", answer)["flags"] & EPHEMERAL
    return text_of(answer)


def submitted_by(quiz: Quiz) -> list[str]:  # noqa: F811
    """The members whose form submissions reached the quiz, in order."""
    return [e.member.member_id for e, _ in quiz.handled.done if isinstance(e, FormSubmit)]


# what each form needs: a scene, the press or command that opens it (per member), the
# values typed (per member), and what the quiz must have kept of both submissions


@dataclass
class FormCase:
    scene: Callable[[Quiz], Awaitable[Json]]
    opener: Callable[[Quiz, Json, int], Json]
    members: tuple[int, int]
    values: Callable[[int], dict[str, str]]
    kept: Callable[[Quiz], Awaitable[None]]


async def blind_round(quiz: Quiz) -> Json:  # noqa: F811
    await quiz.command(LEAD, "config", {"setting": "answers", "value": "blind"})
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    [question] = [
        m for m in quiz.fake.channel_messages() if m["embeds"][0]["title"] == "Question #1"
    ]
    return question


async def a_suggestion(quiz: Quiz) -> Json:  # noqa: F811
    await quiz.command(LEAD, "now")
    modal = await open_form(quiz, command_payload(quiz.fake, ANN, "suggest"))
    assert "Suggestion #s1" in await submit(quiz, ANN, modal["custom_id"], question_values(0))
    quiz.handled.done.clear()
    return {}


async def a_flag(quiz: Quiz) -> Json:  # noqa: F811
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    await quiz.command(ANN, "flag", {"reason": "the outline forgets GQA"})
    quiz.handled.done.clear()
    return {}


def answer_button(quiz: Quiz, question: Json, user: int) -> Json:  # noqa: F811
    [answer] = [
        c
        for c in question["components"][0]["components"]
        if c["custom_id"].startswith("quizbot:answer:")
    ]
    return button_payload(quiz.fake, user, question, answer["custom_id"])


def reject_button(quiz: Quiz, _: Json, user: int) -> Json:  # noqa: F811
    custom_id = "quizbot:review_reject:s1"
    button = {"type": 2, "style": 1, "label": "Reject s1", "custom_id": custom_id}
    card = quiz.fake.add_message(
        quiz.fake.channel_id, quiz.fake.bot_id, "", components=[{"type": 1, "components": [button]}]
    )
    return button_payload(quiz.fake, user, card, custom_id)


def command(name: str, options: dict[str, Any] | None = None) -> Callable[[Quiz, Json, int], Json]:
    return lambda quiz, _, user: command_payload(quiz.fake, user, name, options)  # noqa: F811


async def both_answers_kept(quiz: Quiz) -> None:  # noqa: F811
    answers = await quiz.store.answers.round_answers((await quiz.round()).id)
    assert sorted(a.text for a in answers) == ["ann wrote this", "bob wrote this"]


async def both_suggestions_kept(quiz: Quiz) -> None:  # noqa: F811
    pending = await quiz.store.bank.pending_suggestions(space(quiz))
    assert sorted(s.question.question for s in pending) == sorted(
        question_values(n)["question"] for n in (1, 2)
    )


async def the_last_edit_kept(quiz: Quiz) -> None:  # noqa: F811
    [suggestion] = await quiz.store.bank.pending_suggestions(space(quiz))
    assert suggestion.question.question == question_values(2)["question"]


async def the_flagged_question_corrected(quiz: Quiz) -> None:  # noqa: F811
    flags = await quiz.store.bank.flags(space(quiz))
    assert flags == []  # the first correction resolved the flag


async def the_suggestion_rejected(quiz: Quiz) -> None:  # noqa: F811
    assert await quiz.store.bank.pending_suggestions(space(quiz)) == []


def space(quiz: Quiz) -> Workspace:  # noqa: F811
    return Workspace("discord", str(quiz.fake.guild_id))


def typed(member: int) -> dict[str, str]:
    return {"answer": "ann wrote this" if member == ANN else "bob wrote this"}


def suggested(member: int) -> dict[str, str]:
    return question_values(1 if member in (ANN, LEAD) else 2)


def reason(member: int) -> dict[str, str]:
    return {"reason": f"covered already (says {member})"}


CASES = {
    "the blind answer": FormCase(blind_round, answer_button, (ANN, BOB), typed, both_answers_kept),
    "a suggestion": FormCase(
        a_flag, command("suggest"), (ANN, BOB), suggested, both_suggestions_kept
    ),
    "an edit of a suggestion": FormCase(
        a_suggestion,
        command("review", {"action": "edit", "item": "s1"}),
        (LEAD, ADA),
        suggested,
        the_last_edit_kept,
    ),
    "a correction of a flagged question": FormCase(
        a_flag,
        command("review", {"action": "edit", "item": "f1"}),
        (LEAD, ADA),
        lambda member: {**question_values(0), "outline": f"corrected by {member}"},
        the_flagged_question_corrected,
    ),
    "a rejection": FormCase(
        a_suggestion, reject_button, (LEAD, ADA), reason, the_suggestion_rejected
    ),
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
async def test_two_members_with_the_same_form_open_each_have_theirs_taken(
    quiz: Quiz,  # noqa: F811
    case: FormCase,
) -> None:
    quiz.fake.add_member(ADA, "ada", permissions=MANAGE_GUILD)
    scene = await case.scene(quiz)
    first, second = case.members

    opened = [await open_form(quiz, case.opener(quiz, scene, member)) for member in case.members]
    answers = [
        await submit(quiz, member, modal["custom_id"], case.values(member))
        for member, modal in zip(case.members, opened, strict=True)
    ]

    ids = [modal["custom_id"] for modal in opened]
    assert ids[0] != ids[1] and all(len(i) <= CUSTOM_ID_LIMIT for i in ids)
    assert submitted_by(quiz) == [str(first), str(second)]
    assert all("expired" not in answer for answer in answers)
    await case.kept(quiz)


RESTART_CASES = {k: CASES[k] for k in ("the blind answer", "a suggestion", "a rejection")}


@pytest.mark.parametrize("case", list(RESTART_CASES.values()), ids=list(RESTART_CASES))
async def test_a_form_submitted_after_a_restart_is_still_taken(
    quiz: Quiz,  # noqa: F811
    case: FormCase,
) -> None:
    quiz.fake.add_member(ADA, "ada", permissions=MANAGE_GUILD)
    scene = await case.scene(quiz)
    opened = [await open_form(quiz, case.opener(quiz, scene, member)) for member in case.members]

    await quiz.disconnect()  # a new process: nothing of the open forms is in memory
    await quiz.connect()
    for member, modal in zip(case.members, opened, strict=True):
        await submit(quiz, member, modal["custom_id"], case.values(member))

    assert submitted_by(quiz) == [str(m) for m in case.members]
    await case.kept(quiz)


async def test_a_form_that_cannot_be_routed_is_answered_with_what_was_typed(
    quiz: Quiz,  # noqa: F811
) -> None:
    question = await blind_round(quiz)
    round_ = await quiz.round()
    bobs = await open_form(quiz, answer_button(quiz, question, BOB))
    values = {"answer": "keep   *this*\n```exactly```", "note": "a second box"}

    unroutable = [
        bobs["custom_id"],  # opened for someone else: Discord never lets another submit it
        f"quizbot-form:answer:{round_.id}:{ANN}:extra",
        "quizbot-form:answer",  # cut short
        "quizbot-form:" + "#" * 80,
    ]
    for custom_id in unroutable:
        answer = await submit(quiz, ANN, custom_id, values)
        assert "This form expired" in answer
        assert values["answer"] in answer and values["note"] in answer  # nothing is lost

    assert submitted_by(quiz) == []
    assert await quiz.store.answers.round_answers(round_.id) == []


async def test_a_form_too_big_for_a_custom_id_is_not_opened(
    fake: FakeDiscord,
    make_platform: PlatformFactory,
) -> None:
    fake.add_member(ANN, "ann")
    field = FormField("answer", "Your answer", multiline=True)
    form = Form("answer", "9" * 90, "Your answer", (field,))
    recorder = Recorder(answer=Response(Card(title="Answer"), form=form))
    await make_platform(recorder)
    payload = command_payload(fake, ANN, "suggest")

    await fake.dispatch("INTERACTION_CREATE", payload)
    await eventually(lambda: bool(replies_to(fake, payload)))

    [reply] = replies_to(fake, payload)
    assert reply["type"] == 4  # told at once, not a form whose submission would be lost
    assert "cannot be opened" in text_of(reply) and reply["data"]["flags"] & EPHEMERAL


async def test_an_answer_form_submitted_after_the_reveal_gives_back_what_was_typed(
    quiz: Quiz,  # noqa: F811
) -> None:
    question = await blind_round(quiz)
    modal = await open_form(quiz, answer_button(quiz, question, ANN))
    await quiz.command(LEAD, "reveal")
    await quiz.service.settle()
    typed = "page the KV cache in 16-token blocks,\n  then   evict by LRU"

    answer = await submit(quiz, ANN, modal["custom_id"], {"answer": typed})

    assert "already revealed, so answers are closed" in answer
    assert typed in answer  # the refusal repeats it: nothing typed is lost
    assert await quiz.store.answers.round_answers((await quiz.round()).id) == []
