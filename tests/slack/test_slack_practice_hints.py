"""The Hint button of private practice on Slack: pressed in the IM, it shows the next key
point of the question there, and the session counts it."""

from __future__ import annotations

import pytest

from bot.kernel.refs import MemberRef
from questions.catalog import Catalog
from tests.core.reviews.test_peer_reviews import catalog_with_key_points
from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM
from tests.slack.test_practice_in_direct_messages import MEMBER, in_im, press_in_im


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


async def test_the_hint_button_in_the_slack_im_shows_one_key_point(
    slack_quiz: SlackQuiz,
) -> None:
    await slack_quiz.command("now")
    await slack_quiz.command("practice", by=MEMBER)
    question = in_im(slack_quiz)[-1]
    await press_in_im(slack_quiz, question, "practice_hint")
    member_id = await slack_quiz.service.store.members.member_id(
        MemberRef("slack", TEAM, MEMBER, "")
    )
    session = await slack_quiz.service.practice.current(member_id)
    assert session is not None and session.hints == 1
    asked = slack_quiz.service.engine.question_for(session.direct, session.question_id)
    assert asked is not None
    shown = in_im(slack_quiz)[-1].block_texts()
    assert shown[0].startswith(f"Hint 1 of {len(asked.key_points)}")
    assert asked.key_points[0] in " ".join(shown)
