"""The turn of a season through the core and the fake platform, on both store backends:
the champions posted once, the standings and archive of `/quiz season`, the titles in
`/quiz me`, the away member not ranked, and the settings' right form."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.kernel.models import SeasonLength
from tests.core.seasons.season_seed import (
    NOVEMBER,
    TURN,
    channel_settings,
    field,
    season_posts,
    seed_november,
    turn,
)
from tests.harness import QuizHarness


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def test_the_turn_posts_the_past_seasons_champions_once(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    await turn(quiz)
    await turn(quiz)  # handled twice (a restart, another replica): recorded once

    [post] = season_posts(quiz.platform)
    channel = await channel_settings(quiz)
    assert post.key == f"season:{channel.id}:2026-11"
    assert post.card.title == "🏆 Season 2026-11"
    assert field(post, "Most points").startswith("Ann: ")
    assert field(post, "Most improved").startswith("Bob: +")
    assert field(post, "Most helpful") == "Cat: 1 helpful review(s)"
    assert post.card.ping == ""  # no role named: the post mentions nobody


async def test_the_season_command_shows_standings_and_the_archive(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    running = await quiz.command("season", by="bob")
    assert running.card.title == "Season 2026-11"
    assert "running" in running.card.body
    points = next(f.value for f in running.card.fields if f.name == "Most points")
    assert points.splitlines()[0].startswith("1. Ann: ")
    assert points.splitlines()[1].startswith("2. Bob: ")

    await turn(quiz)
    past = await quiz.command("season 2026-11", by="bob")
    assert "over" in past.card.body
    archive = next(f.value for f in past.card.fields if f.name == "Past champions")
    assert archive == "2026-11: most points Ann, most improved Bob, most helpful Cat"
    december = await quiz.command("season", by="bob")
    assert december.card.title == "Season 2026-12"


async def test_me_shows_the_members_titles(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    await turn(quiz)
    me = await quiz.command("me", by="cat")
    titles = next(f.value for f in me.card.fields if f.name == "Season titles")
    assert titles == "Most helpful, 2026-11 in #practice"
    ann = await quiz.command("me", by="ann")
    assert "Most points, 2026-11" in next(
        f.value for f in ann.card.fields if f.name == "Season titles"
    )


async def test_a_member_away_most_of_the_season_is_not_ranked(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    quiz.clock.set(NOVEMBER + timedelta(days=3))  # 5 November: away through the month
    await quiz.command("away until 2026-11-30", by="ann")
    await turn(quiz)

    [post] = season_posts(quiz.platform)
    assert field(post, "Most points").startswith("Bob: ")  # Ann has more, but was away
    past = await quiz.command("season 2026-11", by="bob")
    unranked = next(f.value for f in past.card.fields if f.name.startswith("Not ranked"))
    assert unranked == "Ann"


async def test_a_member_away_a_few_days_is_ranked(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    quiz.clock.set(NOVEMBER + timedelta(days=20))
    await quiz.command("away until 2026-11-28", by="ann")  # 6 days of 30
    await turn(quiz)
    [post] = season_posts(quiz.platform)
    assert field(post, "Most points").startswith("Ann: ")


async def test_a_season_without_rounds_posts_nothing(quiz: QuizHarness) -> None:
    quiz.clock.set(TURN - timedelta(days=40))
    await quiz.command("schedule daily 09:00 UTC")
    await turn(quiz)
    assert season_posts(quiz.platform) == []


async def test_seasons_off_post_nothing_and_quarterly_wait_for_the_quarter(
    quiz: QuizHarness,
) -> None:
    await seed_november(quiz)
    set_off = await quiz.command("config seasons off")
    assert "No seasons" in set_off.card.plain_text()
    assert (await channel_settings(quiz)).seasons is SeasonLength.OFF
    await turn(quiz)
    assert season_posts(quiz.platform) == []
    refused = await quiz.command("season", by="bob")
    assert "Seasons are off" in refused.card.plain_text()

    await quiz.command("config seasons quarterly")
    quarter = await quiz.command("season", by="bob")
    assert quarter.card.title == "Season 2026-Q4"
    bad = await quiz.command("season 2026-11", by="bob")
    assert "written YYYY-Qn, e.g. 2026-Q4" in bad.card.plain_text()


async def test_a_wrong_seasons_argument_tells_the_right_form(quiz: QuizHarness) -> None:
    await quiz.command("now")
    wrong = await quiz.command("config seasons weekly")
    text = wrong.card.plain_text()
    assert "Give seasons as monthly, quarterly or off, not" in text
    assert "weekly" in text
    bad_month = await quiz.command("season 2026-13", by="bob")
    assert "written YYYY-MM, e.g. 2026-11" in bad_month.card.plain_text()


async def test_members_may_not_change_seasons(quiz: QuizHarness) -> None:
    await quiz.command("now")
    refused = await quiz.command("config seasons off", by="bob")
    assert (await channel_settings(quiz)).seasons is SeasonLength.MONTHLY
    assert "admin" in refused.card.plain_text().lower()


async def test_the_season_role_is_mentioned_and_named_to_the_champions(
    quiz: QuizHarness,
) -> None:
    await seed_november(quiz)
    await quiz.command("config season-role champions")
    await turn(quiz)
    [post] = season_posts(quiz.platform)
    assert post.card.ping == "champions"
    assert "ask an admin for the group mentioned above" in post.card.footer


async def test_the_export_holds_the_members_titles(quiz: QuizHarness) -> None:
    await seed_november(quiz)
    await turn(quiz)
    cat = await quiz.service.store.members.member_id(quiz.member("cat"))
    tables = await quiz.service.store.member_data.member_tables(cat)
    [row] = tables["season_champions"]
    assert row["season"] == "2026-11" and row["title"] == "helpful"
