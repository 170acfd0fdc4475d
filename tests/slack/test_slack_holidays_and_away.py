"""Holidays and time away on Slack, through signed slash commands to the fake Web API:
`/quiz schedule skip|unskip DATE[..DATE]` and the skips `/quiz schedule` lists,
`/quiz away until DATE|off` and its status, in a channel and in the member's IM."""

from __future__ import annotations

from datetime import date

from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM

MEMBER = "U0ALICE"


def said(slack_quiz: SlackQuiz) -> str:
    """Everything the bot answered privately, directly or through the response_url."""
    return str(slack_quiz.fake.ephemerals) + str(slack_quiz.fake.responses)


async def told(slack_quiz: SlackQuiz, text: str, *, by: str | None = None) -> str:
    before = len(said(slack_quiz))
    response = (
        await slack_quiz.command(text) if by is None else await slack_quiz.command(text, by=by)
    )
    assert response.status == 200
    return said(slack_quiz)[before:] + response.body


async def skipped(slack_quiz: SlackQuiz) -> list[date]:
    [channel] = await slack_quiz.service.store.channels.list_channels()
    return await slack_quiz.service.store.skipped_days.skipped_days(channel.id, date(2026, 1, 1))


async def test_skip_unskip_and_the_list(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("schedule weekdays 09:00 Europe/Berlin")
    answer = await told(slack_quiz, "schedule skip 2026-12-24..2026-12-26")
    assert "No question on Thu 24 Dec 2026 – Sat 26 Dec 2026 (Europe/Berlin)" in answer
    assert await skipped(slack_quiz) == [date(2026, 12, 24), date(2026, 12, 25), date(2026, 12, 26)]
    listed = await told(slack_quiz, "schedule", by=MEMBER)
    assert "Skipped days ahead" in listed and "Thu 24 Dec 2026 – Sat 26 Dec 2026" in listed
    await told(slack_quiz, "schedule unskip 2026-12-26")
    assert await skipped(slack_quiz) == [date(2026, 12, 24), date(2026, 12, 25)]
    refused = await told(slack_quiz, "schedule skip 2026-12-31", by=MEMBER)
    assert "admin" in refused.lower() and len(await skipped(slack_quiz)) == 2


async def test_bad_dates_get_the_form(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("schedule weekdays 09:00 UTC")
    backwards = await told(slack_quiz, "schedule skip 2026-12-26..2026-12-24")
    assert (
        "runs backwards" in backwards and "/quiz schedule [skip|unskip DATE[..DATE]]" in backwards
    )
    assert "longer than a year" in await told(slack_quiz, "schedule skip 2026-12-01..2027-12-01")
    past = await told(slack_quiz, "away until 2026-11-01", by=MEMBER)
    assert "2026-11-01 is in the past" in past and "/quiz away [off|until DATE]" in past


async def test_away_on_status_and_off_in_a_channel(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("schedule weekdays 09:00 UTC")
    assert "until Thu 24 Dec 2026" in await told(slack_quiz, "away until 2026-12-24", by=MEMBER)
    assert await slack_quiz.service.store.away.until(TEAM, MEMBER) == date(2026, 12, 24)
    assert "You are away" in await told(slack_quiz, "away", by=MEMBER)
    assert "Welcome back" in await told(slack_quiz, "away off", by=MEMBER)
    assert "Not away" in await told(slack_quiz, "away", by=MEMBER)


async def test_away_from_the_im(slack_quiz: SlackQuiz) -> None:
    slack_quiz.channel = f"D{MEMBER}"
    answer = await told(slack_quiz, "away until 2026-12-04", by=MEMBER)
    assert "only in a channel" not in answer and "until Fri 04 Dec 2026" in answer
    assert await slack_quiz.service.store.away.until(TEAM, MEMBER) == date(2026, 12, 4)
    assert "You are away" in await told(slack_quiz, "away", by=MEMBER)
