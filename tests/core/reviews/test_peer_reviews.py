"""Learning from each other, on both store backends: ``/quiz covered`` grades from the
key points ticked, ``/quiz rate`` reviews a teammate's answer (+2 points, 3 a round; told
privately to the author, anonymously unless the channel names reviewers), the median
review grades a member who did not grade, ``/quiz best`` posts the best answer, and
``/quiz me`` compares a member's own grades with their reviewers'."""

from __future__ import annotations

import pytest

from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.forms import Form
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.kernel.render import Card, CardKind, Response
from bot.rounds.cards import CHECKLIST_ACTION, REVIEW_ACTION
from questions.catalog import Catalog
from questions.pack import Pack
from tests.conftest import sample_pack
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


KEY_POINTS = ["the ring", "the bus bandwidth", "the 2(N-1)/N factor", "NVLink", "the tests"]


def catalog_with_key_points() -> Catalog:
    """The sample pack, every question with the same five key points."""
    pack = sample_pack().model_dump()
    for question in pack["questions"]:
        question["key_points"] = KEY_POINTS
    return Catalog([Pack.model_validate(pack)])


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


async def revealed_round_with_answers(quiz: QuizHarness) -> int:
    """A revealed round answered by ann (#1), then bob (#2); its id."""
    await quiz.command("now")
    await quiz.answer("ann", "ann's answer about the ring")
    await quiz.answer("bob", "bob's answer about NVLink")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)
    return round_.id


def direct_to(quiz: QuizHarness, name: str) -> list[Card]:
    return [m.card for m in quiz.platform.messages if m.channel.channel_id == f"D-{name}"]


async def points(quiz: QuizHarness, name: str) -> int:
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    member_id = await quiz.service.store.members.member_id(quiz.member(name))
    return (await quiz.service.store.reports.member_history(channel.id, member_id)).points


async def test_ticks_propose_the_grade_and_another_grade_keeps_them(quiz: QuizHarness) -> None:
    round_id = await revealed_round_with_answers(quiz)

    ticked = await quiz.command("covered 1 3 4", by="ann")

    assert "3 of 5 key points: partly" in ticked.card.body
    grades = await quiz.service.store.learning.round_grades(round_id)
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))
    assert grades[ann] is Grade.PARTLY
    await quiz.command("grade good", by="ann")
    assert (await quiz.service.store.learning.round_grades(round_id))[ann] is Grade.GOOD
    every = await quiz.command("covered 1,2 3 4 5", by="ann")
    assert "5 of 5 key points: nailed" in every.card.body


@pytest.mark.parametrize(("typed", "problem"), [("9", "1 to 5"), ("x", "key point number")])
async def test_a_bad_tick_names_the_right_form(quiz: QuizHarness, typed: str, problem: str) -> None:
    await revealed_round_with_answers(quiz)
    refused = await quiz.command(f"covered {typed}", by="ann")
    assert refused.card.kind is CardKind.ERROR
    assert problem in refused.card.body


async def test_a_review_tells_the_author_privately_and_earns_points(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)
    before = await points(quiz, "bob")

    listed = await quiz.command("rate", by="bob")
    saved = await quiz.command("rate #1 3 clear on the ring, busbw missing", by="bob")

    assert "#1 Ann" in listed.card.body and "#2 Bob" in listed.card.body
    assert saved.card.kind is not CardKind.ERROR, saved.card.body
    assert await points(quiz, "bob") == before + 2
    [told] = direct_to(quiz, "ann")
    assert "A teammate reviewed your answer" in told.body
    fields = {f.name: f.value for f in told.fields}
    assert fields["Score"] == "3 (solid)"
    assert fields["Comment"] == "clear on the ring, busbw missing"
    assert "Bob" not in told.plain_text()


async def test_named_reviews_tell_the_author_who(quiz: QuizHarness) -> None:
    await quiz.command("config reviews named")
    await revealed_round_with_answers(quiz)
    await quiz.command("rate #1 4", by="bob")
    assert "Bob reviewed your answer" in direct_to(quiz, "ann")[-1].body


async def test_no_review_of_ones_own_answer_and_one_per_answer(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)
    own = await quiz.command("rate #1 4", by="ann")
    assert own.card.kind is CardKind.ERROR and "your own answer" in own.card.body

    await quiz.command("rate #1 2", by="bob")
    again = await quiz.command("rate #1 3 on second thought", by="bob")

    assert "replaces your earlier one" in again.card.body
    assert await points(quiz, "bob") == 10 + 5 + 2  # the answer before the reveal, one review
    answer = (await quiz.service.store.answers.round_answers((await quiz.round()).id))[0]
    [review] = await quiz.service.store.reviews.answer_reviews(answer.id)
    assert (review.score, review.comment, review.points) == (3, "on second thought", 2)


async def test_only_three_reviews_a_round_earn_points(quiz: QuizHarness) -> None:
    await quiz.command("now")
    for name in ("ann", "bob", "cid", "dan", "eve"):
        await quiz.answer(name, f"{name}'s answer")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)
    start = await points(quiz, "eve")

    for number in (1, 2, 3, 4):
        await quiz.command(f"rate #{number} 3", by="eve")

    assert await points(quiz, "eve") == start + 3 * 2


async def test_reviews_come_after_the_reveal(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("ann", "an answer")
    refused = await quiz.command("rate #1 3", by="bob")
    assert refused.card.kind is CardKind.ERROR and "after the reveal" in refused.card.body


async def test_the_median_review_grades_a_member_who_did_not(quiz: QuizHarness) -> None:
    round_id = await revealed_round_with_answers(quiz)
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))

    await quiz.command("rate #1 4", by="bob")
    await quiz.command("rate #1 2", by="carol")
    await quiz.command("rate #1 1", by="dan")

    assert (await quiz.service.store.learning.round_grades(round_id))[ann] is Grade.PARTLY
    await quiz.command("grade nailed", by="ann")  # her own grade wins
    await quiz.command("rate #1 1", by="eve")
    assert (await quiz.service.store.learning.round_grades(round_id))[ann] is Grade.NAILED


async def test_an_admin_removes_a_review_and_its_points(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)
    await quiz.command("rate #2 1 rude words", by="ann")
    assert await points(quiz, "ann") > 0
    listed = await quiz.command("rate #2")  # the admin sees who wrote it
    assert "r1 Ann" in listed.card.body

    refused = await quiz.command("rate #2 remove r1", by="bob")
    removed = await quiz.command("rate #2 remove r1")

    assert refused.card.kind is CardKind.ERROR
    assert "removed" in removed.card.title
    answer = (await quiz.service.store.answers.round_answers((await quiz.round()).id))[1]
    assert await quiz.service.store.reviews.answer_reviews(answer.id) == []


async def test_the_best_answer_is_posted_under_the_outline_once(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)
    refused = await quiz.command("best #2", by="bob")
    marked = await quiz.command("best #2")
    again = await quiz.command("best #2")

    assert refused.card.kind is CardKind.ERROR
    assert marked.card.title == "Best answer marked"
    assert "already" in again.card.plain_text()
    thread = await quiz.thread()
    best = [m for m in quiz.platform.in_thread(thread) if m.card.title.startswith("Best answer")]
    assert [m.card.title for m in best] == ["Best answer: Bob"]
    titles = quiz.platform.titles(thread)
    assert titles.index("Sample answer outline") < titles.index("Best answer: Bob")


async def test_me_compares_own_grades_with_reviewers_once_three_are_reviewed(
    quiz: QuizHarness,
) -> None:
    for _ in range(3):
        await revealed_round_with_answers(quiz)
        await quiz.command("grade nailed", by="ann")
        shown = await quiz.command("me", by="ann")
        await quiz.command("rate #1 3", by="bob")
    assert "reviewers" not in shown.card.plain_text()  # two reviewed answers at that point

    me = await quiz.command("me", by="ann")

    assert "About one grade above your reviewers" in me.card.plain_text().replace(
        "You grade yourself about", "About"
    )


async def press(quiz: QuizHarness, by: str, action: str, value: str) -> Response:
    round_ = await quiz.round()
    assert round_.question_message is not None
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, round_.question_message),
            quiz.member(by),
            action,
            value,
        )
    )
    assert response is not None
    return response


async def submit(quiz: QuizHarness, by: str, form: Form, values: dict[str, str]) -> Response:
    response = await quiz.service.handle(
        FormSubmit(quiz.event_id(), quiz.channel, quiz.member(by), form.kind, form.target, values)
    )
    await quiz.service.settle()
    assert response is not None
    return response


async def test_the_outline_offers_ticks_and_a_review_form(quiz: QuizHarness) -> None:
    round_id = await revealed_round_with_answers(quiz)
    thread = await quiz.thread()
    [outline] = [m.card for m in quiz.platform.in_thread(thread) if m.key.endswith(":outline")]
    actions = {b.action: b.value for b in outline.buttons}
    assert actions[CHECKLIST_ACTION] == str(round_id)
    assert actions[REVIEW_ACTION] == f"r{round_id}"

    ticks = await press(quiz, "ann", CHECKLIST_ACTION, str(round_id))
    assert ticks.form is not None
    [covered] = ticks.form.fields
    assert covered.multiple and covered.choices == tuple(KEY_POINTS)
    graded = await submit(quiz, "ann", ticks.form, {"covered": "1 2 3 4"})
    assert "4 of 5 key points: good" in graded.card.body

    review = await press(quiz, "bob", REVIEW_ACTION, f"r{round_id}")
    assert review.form is not None
    answer_field = review.form.fields[0]
    assert answer_field.choices[0].startswith("#1 Ann: ")
    refused = await submit(quiz, "bob", review.form, {"answer": "1", "score": ""})
    assert [p.field for p in refused.problems] == ["score"]
    sent = await submit(
        quiz, "bob", review.form, {"answer": "1", "score": "4", "covered": "1 2", "comment": "x"}
    )
    assert "saved" in sent.card.title
    answer = (await quiz.service.store.answers.round_answers(round_id))[0]
    [stored] = await quiz.service.store.reviews.answer_reviews(answer.id)
    assert (stored.score, stored.covered, stored.comment) == (4, (1, 2), "x")


async def test_a_blind_answers_review_button_picks_that_answer(quiz: QuizHarness) -> None:
    await quiz.command("config answers blind")
    await quiz.command("now")
    await quiz.command("answer my blind answer", by="ann")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)
    thread = await quiz.thread()
    [posted] = [m.card for m in quiz.platform.in_thread(thread) if m.card.answer_by == "Ann"]
    [button] = [b for b in posted.buttons if b.action == REVIEW_ACTION]

    review = await press(quiz, "bob", REVIEW_ACTION, button.value)

    assert review.form is not None and review.form.fields[0].value == "1"


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("abc", "'abc' is not a key point"),
        ("99", "99 is not one of them"),
        ("1 2 3 4 5 6", "6 is not one of them"),
    ],
)
async def test_a_bad_tick_in_the_form_keeps_the_grade_and_names_the_field(
    quiz: QuizHarness, typed: str, says: str
) -> None:
    round_id = await revealed_round_with_answers(quiz)
    await quiz.command("grade nailed", by="ann")
    ticks = await press(quiz, "ann", CHECKLIST_ACTION, str(round_id))
    assert ticks.form is not None

    refused = await submit(quiz, "ann", ticks.form, {"covered": typed})

    assert [p.field for p in refused.problems] == ["covered"]
    assert says in refused.card.body and "1 to 5" in refused.card.body
    grades = await quiz.service.store.learning.round_grades(round_id)
    assert grades[await quiz.service.store.members.member_id(quiz.member("ann"))] == Grade.NAILED


async def test_a_superscript_digit_in_a_form_is_a_word_not_a_number(quiz: QuizHarness) -> None:
    round_id = await revealed_round_with_answers(quiz)
    ticks = await press(quiz, "ann", CHECKLIST_ACTION, str(round_id))
    assert ticks.form is not None
    refused = await submit(quiz, "ann", ticks.form, {"covered": "²"})
    assert "'²' is not a key point" in refused.card.body
    review = await press(quiz, "bob", REVIEW_ACTION, f"r{round_id}")
    assert review.form is not None
    refused = await submit(quiz, "bob", review.form, {"answer": "1", "score": "²"})
    assert [p.field for p in refused.problems] == ["score"]


async def test_a_grade_over_the_reviewers_stand_in_says_it_replaces_their_score(
    quiz: QuizHarness,
) -> None:
    await revealed_round_with_answers(quiz)
    await quiz.command("rate #1 4", by="bob")  # the reviewers' score grades ann: nailed
    told = (await quiz.command("grade good", by="ann")).card
    assert told.title == "Question #1 graded: good"
    assert told.body.startswith(
        "Your own grade replaces your reviewers' score (nailed), which stood in for it."
    )
    assert "changed" not in told.title
    again = (await quiz.command("grade partly", by="ann")).card  # now her own grade changes
    assert again.title == "Question #1: grade changed from good to partly"
