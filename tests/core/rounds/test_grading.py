"""Self-grading after the reveal: who may grade, changing a grade, refusals, and the cards
it updates (checked against the ``fsrs`` package directly)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from bot.kernel.events import ButtonPress
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.kernel.render import Response
from bot.rounds import cards
from tests.fakes import FakePlatform
from tests.harness import QuizHarness

FSRS = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


async def revealed_round(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    await quiz.react("alice", "💡")


async def press(quiz: QuizHarness, by: str, action: str, value: str) -> Response | None:
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(),
            quiz.channel,
            MessageRef(quiz.channel, "m1"),
            quiz.member(by),
            action,
            value,
        )
    )
    await quiz.service.settle()
    return response


async def member_cards(quiz: QuizHarness, name: str) -> dict[int, object]:
    member_id = await quiz.service.store.members.member_id(quiz.member(name))
    return dict(await quiz.service.store.learning.member_cards(member_id))


async def test_any_member_grades_privately_and_learns_when_it_comes_back(
    quiz: QuizHarness,
) -> None:
    await revealed_round(quiz)
    response = await quiz.command("grade partly", by="bob")  # bob did not even answer
    assert not response.public
    assert response.card.title == "Question #1 graded: partly"
    partly = FSRS.review_card(Card(card_id=1, due=quiz.clock.now()), Rating.Hard, quiz.clock.now())[
        0
    ]
    assert f"comes back for you on {partly.due:%a %d %b %Y}" in response.card.body


async def test_grading_never_changes_points(quiz: QuizHarness) -> None:
    await revealed_round(quiz)
    before = (await quiz.command("leaderboard all")).card.body
    await quiz.command("grade nailed", by="alice")
    await quiz.command("grade missed", by="bob")
    assert (await quiz.command("leaderboard all")).card.body == before


async def test_a_grade_before_the_reveal_is_refused_with_the_reason(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    response = await quiz.command("grade good", by="alice")
    assert response.card.kind == "error"
    assert "Question #1 is not revealed yet" in response.card.body
    assert "💡" in response.card.body
    assert await member_cards(quiz, "alice") == {}


async def test_no_quiz_here_then_no_round_yet(quiz: QuizHarness) -> None:
    no_quiz = await quiz.command("grade good", by="alice")
    assert no_quiz.card.title == "No quiz here yet"
    await quiz.command("pause")  # an admin's command sets the quiz up
    no_round = await quiz.command("grade good", by="alice")
    assert no_round.card.kind == "error"
    assert no_round.card.body == "There is no question to grade yet."


async def test_a_second_grade_replaces_the_first_and_the_log_keeps_both(
    quiz: QuizHarness,
) -> None:
    await revealed_round(quiz)
    first_at = quiz.clock.now() + timedelta(seconds=1)
    await quiz.command("grade missed", by="alice")
    changed = await quiz.command("grade good", by="alice")
    assert changed.card.title == "Question #1: grade changed from missed to good"
    round_ = await quiz.round()
    learning = quiz.service.store.learning
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    assert await learning.round_grades(round_.id) == {member_id: Grade.GOOD}
    log = await learning.grade_log(member_id)
    assert [(g, replaced) for _, g, _, replaced in log] == [
        (Grade.MISSED, True),
        (Grade.GOOD, False),
    ]
    [card] = (await learning.member_cards(member_id)).values()
    assert card.reviews == 1  # the replaced grade is no review
    expected, _ = FSRS.review_card(
        Card(card_id=round_.question_id, due=first_at), Rating.Good, log[-1][2]
    )
    assert card.stability == expected.stability
    assert card.difficulty == expected.difficulty
    assert card.due == expected.due
    shown = await quiz.command("grade", by="alice")
    assert shown.card.title == "Question #1: you graded it good"


async def test_member_card_follows_fsrs_over_two_rounds_of_the_same_question(
    quiz: QuizHarness,
) -> None:
    await quiz.command("topics enable networking")
    await quiz.command("topics disable gpu memory")
    await quiz.command("now networking")
    await quiz.react("alice", "💡")
    first = quiz.clock.now() + timedelta(seconds=1)
    await quiz.command("grade missed", by="alice")
    quiz.clock.advance(days=3)
    await quiz.command("now networking")
    await quiz.command("now networking")  # the bank of two wraps round: the first again
    round_ = await quiz.round()
    await quiz.react("alice", "💡")
    second = quiz.clock.now() + timedelta(seconds=1)
    await quiz.command("grade nailed", by="alice")
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    card = (await quiz.service.store.learning.member_cards(member_id))[round_.question_id]
    expected, _ = FSRS.review_card(Card(card_id=1, due=first), Rating.Again, first)
    expected, _ = FSRS.review_card(expected, Rating.Easy, second)
    assert (card.stability, card.difficulty, card.due) == (
        expected.stability,
        expected.difficulty,
        expected.due,
    )
    assert card.reviews == 2


async def test_channel_card_is_the_rounded_mean_of_the_rounds_grades(
    quiz: QuizHarness,
) -> None:
    await revealed_round(quiz)
    first = quiz.clock.now() + timedelta(seconds=1)
    await quiz.command("grade missed", by="alice")  # 1
    await quiz.command("grade good", by="bob")  # 3
    await quiz.command("grade good", by="carol")  # 3 -> mean 2.33 -> partly (Again)
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    round_ = await quiz.round()
    team = (await quiz.service.store.learning.channel_cards(channel.id))[round_.question_id]
    expected, _ = FSRS.review_card(Card(card_id=1, due=first), Rating.Again, first)
    assert (team.stability, team.difficulty, team.reviews) == (
        expected.stability,
        expected.difficulty,
        1,
    )


async def test_a_round_nobody_grades_leaves_the_channel_card_alone(quiz: QuizHarness) -> None:
    await revealed_round(quiz)
    await quiz.command("grade good", by="alice")  # alice practises it privately later on
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    before = await quiz.service.store.learning.channel_cards(channel.id)
    await quiz.command("now")
    await quiz.react("alice", "💡")
    await quiz.command("skip")
    assert await quiz.service.store.learning.channel_cards(channel.id) == before


async def test_grade_buttons_on_the_outline_grade_that_round(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await revealed_round(quiz)
    [outline] = [m for m in await quiz.thread_messages() if m.card.title.startswith("Sample")]
    round_ = await quiz.round()
    assert [(b.label, b.action, b.value) for b in outline.card.buttons] == [
        ("Missed", "grade_missed", str(round_.id)),
        ("Partly", "grade_partly", str(round_.id)),
        ("Good", "grade_good", str(round_.id)),
        ("Nailed", "grade_nailed", str(round_.id)),
        ("Review an answer", "review_answer", f"r{round_.id}"),  # the sample pack: no key points
    ]
    response = await press(quiz, "dana", "grade_nailed", str(round_.id))
    assert response is not None and not response.public
    assert response.card.title == "Question #1 graded: nailed"
    member_id = await quiz.service.store.members.member_id(quiz.member("dana"))
    assert await quiz.service.store.learning.round_grades(round_.id) == {member_id: Grade.NAILED}


async def test_a_grade_button_of_another_channels_round_is_refused(quiz: QuizHarness) -> None:
    await revealed_round(quiz)
    response = await press(quiz, "dana", "grade_good", "999")
    assert response is not None
    assert response.card.body == "That round is not in this channel."
    assert cards.grade_of_action("grade_brilliant") is None


async def test_a_grade_word_that_is_not_one_of_the_four_is_explained(quiz: QuizHarness) -> None:
    await revealed_round(quiz)
    response = await quiz.command("grade brilliant", by="alice")
    assert response.card.kind == "error"
    assert "missed|partly|good|nailed" in response.card.body


async def test_me_shows_mastery_due_count_and_next_review(quiz: QuizHarness) -> None:
    await revealed_round(quiz)
    graded_at = quiz.clock.now() + timedelta(seconds=1)
    await quiz.command("grade partly", by="alice")
    round_ = await quiz.round()
    topic = quiz.service.engine.question_topics()[round_.question_id]
    quiz.clock.advance(hours=5)
    # "partly" is a lapse to FSRS, like "missed" (bot.kernel.grades)
    card, _ = FSRS.review_card(Card(card_id=1, due=graded_at), Rating.Again, graded_at)
    target = quiz.clock.now() + timedelta(seconds=1, days=30)  # no goal: 30 days ahead
    recall = FSRS.get_card_retrievability(card, target)
    text = (await quiz.command("me", by="alice")).card.plain_text()
    expected = f"expected recall on {target:%a %d %b %Y}): {topic} {round(recall * 100)}%"
    assert f"Mastery per topic ({expected}" in text
    assert "Due for review: 0" in text
    assert f"Next review: {card.due:%a %d %b %Y}" in text
    quiz.clock.set(card.due + timedelta(hours=1))
    later = (await quiz.command("me", by="alice")).card.plain_text()
    assert "Due for review: 1" in later
    assert "Next review: now: `/quiz practice`" in later  # never "—" beside reviews due


async def test_me_before_any_grade_says_how_to_get_mastery(quiz: QuizHarness) -> None:
    await quiz.command("now")
    text = (await quiz.command("me", by="alice")).card.plain_text()
    assert "Mastery: grade your answers after the reveal" in text


async def test_stats_lists_the_three_weakest_topics(quiz: QuizHarness) -> None:
    grades = {"gpu": "nailed", "networking": "missed", "memory": "good"}
    for topic, grade in grades.items():
        await quiz.command(f"now {topic}")
        await quiz.react("alice", "💡")
        await quiz.command(f"grade {grade}", by="alice")
    quiz.clock.advance(days=2)
    text = (await quiz.command("stats")).card.plain_text()
    line = next(line for line in text.splitlines() if line.startswith("Weakest topics"))
    assert line.index("networking") < line.index("memory") < line.index("gpu")


async def test_goal_set_shown_and_cleared(quiz: QuizHarness) -> None:
    await quiz.command("now")
    assert (await quiz.command("goal", by="alice")).card.title == "No goal set"
    set_ = await quiz.command("goal 2027-01-15", by="alice")
    assert set_.card.title == "Goal: Fri 15 Jan 2027"
    assert "46 days away" in set_.card.body
    member_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    target = await quiz.service.learning.target(member_id, quiz.clock.now())
    assert target == datetime(2027, 1, 15, tzinfo=UTC)
    assert (await quiz.command("goal off", by="alice")).card.title == "No goal set"
    target = await quiz.service.learning.target(member_id, quiz.clock.now())
    assert target == quiz.clock.now() + timedelta(days=30)


async def test_a_goal_in_the_past_or_not_a_date_is_refused(quiz: QuizHarness) -> None:
    past = await quiz.command("goal 2026-11-30", by="alice")
    assert past.card.kind == "error" and "after today" in past.card.body
    bad = await quiz.command("goal next-friday", by="alice")
    assert bad.card.kind == "error" and "'next-friday' is not a date" in bad.card.body
    assert (await quiz.command("goal", by="alice")).card.title == "No goal set"
