"""`/quiz dashboard` on Slack, through signed requests: the link comes privately (an
ephemeral message or the command's own private answer), never in the channel, and opens
the page it names."""

from __future__ import annotations

import pytest

from bot.kernel.config import QuizConfig
from tests.core.dashboard.team import SECRET, dashboard_config, link_in, page_and_query
from tests.slack.driver import ADMIN, SlackQuiz

MEMBER = "U0ANN"


@pytest.fixture
def config() -> QuizConfig:
    return dashboard_config()


def private_texts(quiz: SlackQuiz, user: str) -> str:
    """What the command said privately: ephemerals to ``user``, and answers to its
    response_url that stay ephemeral."""
    responses = [
        str(r) for r in quiz.fake.responses if r.get("response_type", "ephemeral") == "ephemeral"
    ]
    return "\n".join([*quiz.told(user), *responses])


async def test_the_link_is_private_and_opens_the_page(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    before = len(slack_quiz.fake.posts(slack_quiz.channel))

    response = await slack_quiz.command("dashboard")
    await slack_quiz.command("dashboard me", by=MEMBER)

    assert response.status == 200
    said = private_texts(slack_quiz, ADMIN) + str(response.body)
    lead = link_in(said[said.index("/dashboard/lead") - 30 :])
    assert "/dashboard/lead?" in lead and "p=slack" in lead and SECRET not in said
    # nothing about the dashboard was posted in the channel
    posts = slack_quiz.fake.posts(slack_quiz.channel)[before:]
    assert not any("dashboard" in str(p.blocks) for p in posts)
    page, query = page_and_query(lead)
    shown = await slack_quiz.service.core.dashboard.render(page, query)
    assert shown.status == 200 and "the team&#x27;s quiz" in shown.html

    mine = private_texts(slack_quiz, MEMBER)
    member_link = link_in(mine[mine.index("/dashboard/member") - 30 :])
    assert f"m={MEMBER}" in member_link


async def test_a_member_is_refused_the_teams_page_privately(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("now")
    response = await slack_quiz.command("dashboard", by=MEMBER)
    said = private_texts(slack_quiz, MEMBER) + str(response.body)
    assert "/dashboard/" not in said and "dashboard me" in said
