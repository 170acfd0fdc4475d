"""Mastery is the expected recall on the member's target date (their goal, or 30 days
ahead), not the recall right after the grade, which is always 100%."""

from __future__ import annotations

import re
from datetime import timedelta

from tests.harness import QuizHarness


def mastery_percent(text: str) -> int:
    match = re.search(r"Mastery per topic[^:]*: \S+ (\d+)%", text)
    assert match is not None, text
    return int(match.group(1))


async def test_missed_reads_lower_than_good_lower_than_nailed(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    await quiz.react("alice", "💡")
    for name, grade in (("ann", "missed"), ("gus", "good"), ("nat", "nailed")):
        await quiz.command(f"grade {grade}", by=name)
    seen = {}
    for name in ("ann", "gus", "nat"):
        seen[name] = (await quiz.command("me", by=name)).card.plain_text()
    missed, good, nailed = (mastery_percent(seen[n]) for n in ("ann", "gus", "nat"))
    assert missed < good < nailed < 100
    target = quiz.clock.now() + timedelta(days=30)
    assert f"expected recall on {target:%a %d %b %Y}" in seen["ann"]


async def test_mastery_is_forecast_for_the_goal_date(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.react("alice", "💡")
    await quiz.command("grade good", by="alice")
    far = mastery_percent((await quiz.command("me", by="alice")).card.plain_text())
    goal = quiz.clock.now().date() + timedelta(days=3)
    await quiz.command(f"goal {goal:%Y-%m-%d}", by="alice")
    text = (await quiz.command("me", by="alice")).card.plain_text()
    assert f"expected recall on {goal:%a %d %b %Y}" in text
    assert mastery_percent(text) > far


async def test_the_team_weakest_topic_after_a_miss_is_not_100(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.react("alice", "💡")
    await quiz.command("grade missed", by="alice")
    text = (await quiz.command("stats")).card.plain_text()
    assert "100%" not in text


async def test_me_shows_the_recall_on_first_sight_learned_from_first_grades(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    await quiz.react("alice", "💡")
    await quiz.command("grade missed", by="ann")
    await quiz.command("grade nailed", by="nat")
    ann = (await quiz.command("me", by="ann")).card.plain_text()
    nat = (await quiz.command("me", by="nat")).card.plain_text()

    def known(text: str) -> int:
        match = re.search(r"Known on first sight: (\d+)%", text)
        assert match is not None, text
        return int(match.group(1))

    # One first sight each, shrunk toward the team (the other one), the topic's (one of
    # two recalled: (1 + 8 * 0.2) / 10 = 0.26) and the default: missed 30%, nailed 32%.
    assert known(ann) == round(100 * (8 * (1 + 8 * 0.26) / 9) / 9) == 30
    assert known(nat) == round(100 * (1 + 8 * (8 * 0.26) / 9) / 9) == 32
