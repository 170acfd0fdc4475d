"""Mock interviews in pairs through the core and the fake platform, on both backends:
opting in and out, skipping a week, the admin's slot and ``pair now``; a pairing recorded
once per channel and week and performed once across a failure; each group's shared
conversation with its intro, each interviewer's private brief about their partner; the
members away or skipping left out; a rating grading the candidate's question."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.kernel.errors import PlatformError
from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind
from bot.pairing.schedule import pairing_key
from questions.catalog import Catalog
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.fakes import FakePlatform, Sent
from tests.harness import QuizHarness

WEEK = "2026-W49"  # the week of Monday 2026-11-30, the fake clock's start


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def opted_in(quiz: QuizHarness, *names: str, topics: str = "") -> None:
    await quiz.command("pair schedule tue 10:00")  # the admin makes the channel a quiz
    for name in names:
        response = await quiz.command(f"pair on {topics}".strip(), by=name)
        assert response.card.title == "Pairing on"


async def member_id(quiz: QuizHarness, name: str) -> int:
    return await quiz.service.store.members.member_id(quiz.member(name))


def briefs(platform: FakePlatform) -> dict[str, Sent]:
    """Each member's brief by the DM channel's member."""
    return {
        m.channel.channel_id.removeprefix("D-"): m
        for m in platform.messages
        if m.card.title.startswith("Your interviewer brief")
    }


def intros(platform: FakePlatform) -> list[Sent]:
    return [m for m in platform.messages if m.card.title == "Mock interview of the week"]


async def test_opt_in_status_skip_and_off(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", topics="gpu networking")
    status = await quiz.command("pair", by="ann")
    you = next(f.value for f in status.card.fields if f.name == "You")
    assert you == "Opted in, on gpu, networking."
    nxt = next(f.value for f in status.card.fields if f.name == "Next pairing")
    assert nxt.startswith("Tue 01 Dec 10:00")
    skipped = await quiz.command("pair skip", by="ann")
    assert "skip the pairing of 2026-W49" in skipped.card.body
    stored = await quiz.service.store.pairs.pair_member(
        (await quiz.service.engine.channel(quiz.channel)).id,  # type: ignore[union-attr]
        await member_id(quiz, "ann"),
    )
    assert stored is not None and stored.skip_week == WEEK and stored.direct == "D-ann"
    assert (await quiz.command("pair off", by="ann")).card.title == "Pairing off"
    status = await quiz.command("pair", by="ann")
    assert next(f.value for f in status.card.fields if f.name == "You").startswith("Not opted in")
    assert "not opted in" in (await quiz.command("pair skip", by="ann")).card.body


async def test_schedule_and_now_are_for_admins(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    refused = await quiz.command("pair now", by="ann")
    assert "admin" in refused.card.body.lower()
    refused = await quiz.command("pair schedule fri 09:00", by="bob")
    assert "admin" in refused.card.body.lower()
    bad = await quiz.command("pair schedule someday 09:00")
    assert "Unknown day" in bad.card.body and "Use: /quiz pair" in bad.card.body
    await quiz.command("pair schedule off")
    status = await quiz.command("pair", by="ann")
    assert next(f.value for f in status.card.fields if f.name == "Pairing") == "off"
    assert (
        quiz.service.pairings.plan(
            await quiz.service.engine.channel(quiz.channel)  # type: ignore[arg-type]
        )
        is None
    )


async def test_pair_now_meets_in_one_conversation_and_briefs_each_privately(
    quiz: QuizHarness,
) -> None:
    await opted_in(quiz, "ann", "bob", "cat")
    response = await quiz.command("pair now")
    assert response.card.title == "Pairing now"
    # three members: one trio, in one shared conversation of exactly them
    assert list(quiz.platform.shared.values()) == [["ann", "bob", "cat"]]
    (intro,) = intros(quiz.platform)
    assert intro.channel.channel_id == "G-ann-bob-cat"
    assert "30-minute" in intro.card.body and "Ann" in intro.card.body
    assert "@" not in intro.card.body  # nobody is pinged
    sent = briefs(quiz.platform)
    assert set(sent) == {"ann", "bob", "cat"}
    # each interviews someone else, every member is interviewed once, nobody sees their own
    partners = {
        who: b.card.title.removeprefix("Your interviewer brief: ") for who, b in sent.items()
    }
    assert all(partners[who] != who.title() for who in partners)
    assert sorted(partners.values()) == ["Ann", "Bob", "Cat"]
    brief = sent["ann"].card
    fields = {f.name: f.value for f in brief.fields}
    assert "1. the ring" in fields["Key points to listen for"]
    assert "Do not show" in fields["How to run it"] and fields["Outline (for you only)"]
    # once a week: again is refused, and a slot in the same week records nothing
    again = await quiz.command("pair now")
    assert "done already" in again.card.body
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    await quiz.service.pairings.on_slot(channel.id, quiz.clock.now() + timedelta(days=1))
    await quiz.service.settle()
    assert len(intros(quiz.platform)) == 1 and len(briefs(quiz.platform)) == 3
    assert len([m for m in quiz.platform.messages if "brief" in m.card.title]) == 3


async def test_a_failed_pairing_is_retried_without_a_second_intro(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    quiz.platform.failures.append(PlatformError("group DM down"))
    await quiz.command("pair now")
    assert intros(quiz.platform) == []
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    key = pairing_key(channel.id, WEEK)
    groups = await quiz.service.store.pairs.pairing_groups(key)
    assert groups is not None and len(groups) == 1  # matched and kept before anything failed
    quiz.clock.advance(minutes=10)
    await quiz.service.settle()
    await quiz.service.settle()
    assert len(intros(quiz.platform)) == 1 and set(briefs(quiz.platform)) == {"ann", "bob"}
    pending = [
        a
        for a in await quiz.service.store.outbox.due_actions(quiz.clock.now())
        if a.kind is ActionKind.PAIRING
    ]
    assert pending == []


async def test_members_away_or_skipping_are_left_out(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", "cat", "dan")
    await quiz.command("pair skip", by="dan")
    cat = await member_id(quiz, "cat")
    asked: list[tuple[int, date]] = []

    async def is_away(member: int, day: date) -> bool:
        asked.append((member, day))
        return member == cat

    quiz.service.pairings.is_away = is_away
    await quiz.command("pair now")
    assert list(quiz.platform.shared.values()) == [["ann", "bob"]]
    assert set(briefs(quiz.platform)) == {"ann", "bob"}
    assert (cat, date(2026, 11, 30)) in asked


async def test_a_member_away_by_quiz_away_is_left_out(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", "cat")
    away = await quiz.command("away until 2026-12-04", by="cat")
    assert "away" in (away.card.title + away.card.body).lower()
    await quiz.command("pair now")
    assert list(quiz.platform.shared.values()) == [["ann", "bob"]]


async def test_no_repeat_partner_next_week_while_others_are_possible(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", "cat", "dan")
    await quiz.command("pair now")
    first = sorted(quiz.platform.shared.values())
    quiz.clock.set(datetime(2026, 12, 8, 9, 0, tzinfo=UTC))
    await quiz.command("pair now")
    groups = sorted(quiz.platform.shared.values())
    second = [g for g in groups if g not in first]
    assert len(first) == 2 and len(second) == 2


async def test_a_rating_grades_the_candidate_and_counts_for_both(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair now")
    sent = briefs(quiz.platform)
    ann, bob = await member_id(quiz, "ann"), await member_id(quiz, "bob")
    bad = await quiz.command("pair rate 5", by="ann")
    assert "score first, 1 to 4" in bad.card.body
    bad = await quiz.command("pair rate 3 9", by="ann")
    assert "numbered 1 to 5" in bad.card.body
    rated = await quiz.command("pair rate 3 1 2 4", by="ann")
    assert rated.card.title == "Interview rated" and "3 (solid)" in rated.card.body
    assert "rated this interview already" in (await quiz.command("pair rate 4", by="ann")).card.body
    assert sent["ann"].card.title.endswith("Bob")
    log = await quiz.service.store.learning.grade_log(bob)
    assert [(grade, replaced) for _, grade, _, replaced in log] == [(Grade.GOOD, False)]
    counts = await quiz.service.store.pairs.pair_counts(ann)
    assert (counts.given, counts.taken) == (1, 0)
    assert (await quiz.service.store.pairs.pair_counts(bob)).taken == 1
    me = await quiz.command("me", by="bob")
    assert {f.name: f.value for f in me.card.fields}["Mock interviews"] == "0 given, 1 taken"
    me = await quiz.command("me", by="ann")
    assert {f.name: f.value for f in me.card.fields}["Mock interviews"] == "1 given, 0 taken"


async def test_a_pair_that_did_not_happen_is_not_counted(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair now")
    me = await quiz.command("me", by="ann")
    assert "Mock interviews" not in {f.name for f in me.card.fields}
    assert (await quiz.service.store.pairs.pair_counts(await member_id(quiz, "bob"))).taken == 0


async def test_the_brief_avoids_what_the_partner_graded_this_week(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", topics="gpu")
    bob = await member_id(quiz, "bob")
    questions = quiz.service.engine.question_topics()
    gpu = sorted(q for q, topic in questions.items() if topic == "gpu")
    assert len(gpu) == 2
    await quiz.service.learning.grade(bob, gpu[0], Grade.MISSED, quiz.clock.now())
    await quiz.command("pair now")
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    groups = await quiz.service.store.pairs.pairing_groups(pairing_key(channel.id, WEEK))
    assert groups
    assert await quiz.service.store.pairs.brief_question(groups[0].id, bob) == gpu[1]


async def test_forget_me_erases_the_members_mock_interviews(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob")
    await quiz.command("pair now")
    ann = await member_id(quiz, "ann")
    store = quiz.service.store
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    assert await store.pairs.past_partners(channel.id)  # ann and bob met

    await quiz.command("forget me", by="ann")
    await quiz.command("forget me confirm", by="ann")

    assert await store.pairs.pair_member(channel.id, ann) is None
    # bob keeps the week they met, with a former member in ann's place
    [(first, second)] = await store.pairs.past_partners(channel.id)
    assert ann not in (first, second) and await member_id(quiz, "bob") in (first, second)
    assert await store.pairs.member_groups(channel.id, ann) == []
