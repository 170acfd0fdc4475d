"""`/quiz dashboard`: private, signed, expiring links to the team's page (admins) and to a
member's own page; a changed or expired link gets 403 and one log line without the secret."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from bot.dashboard.pages import DashboardSettings
from bot.kernel.refs import MemberRef
from tests.core.dashboard.team import SECRET, TEAM, link_of, page_and_query, seed_team
from tests.harness import QuizHarness


async def render(quiz: QuizHarness, link: str) -> tuple[int, str]:
    page, query = page_and_query(link)
    shown = await quiz.service.core.dashboard.render(page, query)
    return shown.status, shown.html


async def test_an_admin_gets_a_private_link_to_the_teams_page(quiz: QuizHarness) -> None:
    await seed_team(quiz)

    response = await quiz.command("dashboard")

    assert not response.public
    link = link_of(response)
    assert link.startswith("http://quiz.test:8080/dashboard/lead?") and SECRET not in link
    status, html = await render(quiz, link)
    assert status == 200
    for title in (
        "Participation per week",
        "Expected recall per topic",
        "Item analysis",
        "Mock interviews",
        "Schedule ahead",
    ):
        assert f"<h2>{title}</h2>" in html
    assert html.count("Computed from:") == 5
    assert "<svg" in html and "<script" not in html
    # four members graded: aggregates only, no name, until someone shares
    assert "all members (4)" in html
    assert not any(name.title() in html for name in TEAM)
    assert "1.0 (1 review(s))" in html  # ann's own "good" beside bob's review: missed


async def test_a_member_may_not_open_the_teams_page(quiz: QuizHarness) -> None:
    await seed_team(quiz)
    for words in ("dashboard", "dashboard team"):
        response = await quiz.command(words, by="ann")
        assert "http" not in response.card.plain_text()
        assert "admin" in response.card.plain_text()


async def test_sharing_puts_a_members_row_on_the_teams_page(quiz: QuizHarness) -> None:
    await seed_team(quiz)
    said = await quiz.command("dashboard share on", by="carol")
    assert "now shows your recall" in said.card.plain_text()
    assert "Already so" in (await quiz.command("dashboard share on", by="carol")).card.title

    _, html = await render(quiz, link_of(await quiz.command("dashboard")))
    assert "Carol" in html and "Ann" not in html and "members not sharing (3)" in html

    await quiz.command("dashboard share off", by="carol")
    _, html = await render(quiz, link_of(await quiz.command("dashboard")))
    assert "Carol" not in html


async def test_a_members_page_shows_their_own_figures(quiz: QuizHarness) -> None:
    await seed_team(quiz)

    link = link_of(await quiz.command("dashboard me", by="bob"))

    assert "/dashboard/member?" in link
    status, html = await render(quiz, link)
    assert status == 200
    assert "Bob: your quiz in #practice" in html
    for title in ("Your recall per topic", "Points and streak in #practice", "Your switches"):
        assert f"<h2>{title}</h2>" in html
    assert "/quiz remind" in html and "/quiz away" in html
    assert "Ann" not in html and "Carol" not in html  # no teammate's private data


@pytest.mark.parametrize(
    "change",
    [
        {"c": "999"},  # another channel
        {"m": "carol"},  # another member
        {"w": "other-team"},  # another workspace
        {"e": "99999999999"},  # a later expiry
        {"s": "0" * 64},  # a made-up signature
    ],
)
async def test_a_changed_link_gets_403_and_one_line(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture, change: dict[str, str]
) -> None:
    await seed_team(quiz)
    page, query = page_and_query(link_of(await quiz.command("dashboard me", by="bob")))
    signature = query["s"]
    caplog.set_level(logging.INFO)

    shown = await quiz.service.core.dashboard.render(page, {**query, **change})

    assert shown.status == 403 and "Bob" not in shown.html
    lines = [r for r in caplog.records if "dashboard link refused" in r.getMessage()]
    assert len(lines) == 1
    assert signature not in caplog.text and SECRET not in caplog.text


async def test_a_link_expires_after_the_setting(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture
) -> None:
    await seed_team(quiz)
    link = link_of(await quiz.command("dashboard"))
    quiz.clock.advance(minutes=59)
    assert (await render(quiz, link))[0] == 200

    quiz.clock.advance(minutes=2)

    status, html = await render(quiz, link)
    assert status == 403 and "expired" in html
    assert "the link has expired" in caplog.text


async def test_an_unknown_page_is_refused(quiz: QuizHarness) -> None:
    await seed_team(quiz)
    _, query = page_and_query(link_of(await quiz.command("dashboard")))
    assert (await quiz.service.core.dashboard.render("admin", query)).status == 403
    del query["s"]
    assert (await quiz.service.core.dashboard.render("lead", query)).status == 403


async def test_without_a_web_server_the_command_says_so(quiz: QuizHarness) -> None:
    await quiz.command("now")
    pages = quiz.service.core.dashboard
    pages._settings = DashboardSettings(base_url=None)  # as without QUIZBOT_HTTP_PORT
    response = await quiz.command("dashboard me", by="ann")
    assert "QUIZBOT_HTTP_PORT" in response.card.plain_text()


def test_links_last_an_hour_by_default() -> None:
    from bot.kernel.config import QuizConfig

    assert QuizConfig().dashboard_link_minutes == 60
    assert timedelta(minutes=QuizConfig().dashboard_link_minutes) == timedelta(hours=1)


async def test_members_text_on_the_page_is_inert(quiz: QuizHarness) -> None:
    await seed_team(quiz)
    await quiz.command("dashboard share on", by="carol")
    carol = quiz.member("carol")
    hostile = MemberRef(carol.platform, carol.workspace, carol.member_id, "<script>x()</script>")
    await quiz.service.store.members.member_id(hostile)  # carol renames herself

    _, html = await render(quiz, link_of(await quiz.command("dashboard")))

    assert "<script" not in html
    assert "&lt;script&gt;x()&lt;/script&gt;" in html  # her name, shown as text


async def test_no_aggregate_gives_away_a_member_who_does_not_share(quiz: QuizHarness) -> None:
    await seed_team(quiz)
    for name in ("ann", "bob", "carol"):  # dan alone keeps his rows to himself
        await quiz.command("dashboard share on", by=name)

    _, html = await render(quiz, link_of(await quiz.command("dashboard")))

    # all four's mean, beside three rows by name, would be dan's row: it is not shown
    assert "all members (4)" not in html and "members not sharing" not in html
    assert "Ann" in html and "Bob" in html and "Carol" in html and "Dan" not in html
    assert "No member here has a goal date ahead" in html
