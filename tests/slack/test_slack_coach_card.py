"""The coach's card on Slack, through signed requests: a direct message with its ticks and
the Accept, Edit ticks and Dismiss buttons once the outline is out; Edit ticks opens a
modal of checkboxes ticked as the coach read it, and what is submitted is the grade."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.coach_transport import AiohttpChatTransport
from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from bot.kernel.grades import Grade
from questions.catalog import Catalog
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, scripted_endpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coached_catalog, setup_for
from tests.fakes import FakeClock
from tests.slack.driver import SlackQuiz, running_slack_quiz
from tests.slack.fake_slack import FakeSlack, Posted

ANN, BOB = "U0ANN", "U0BOB"


@pytest.fixture
def catalog() -> Catalog:
    return coached_catalog()


@pytest.fixture
async def coached_slack(
    db_path: Path,
    slack_settings: SlackSettings,
    fake_slack: FakeSlack,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
) -> AsyncIterator[tuple[SlackQuiz, ScriptedEndpoint]]:
    async with scripted_endpoint() as server, AiohttpChatTransport() as transport:
        setup = setup_for(server, transport)
        async with running_slack_quiz(
            db_path, slack_settings, fake_slack, clock, catalog, config, coach=setup
        ) as quiz:
            yield quiz, server


def coach_card(quiz: SlackQuiz) -> Posted:
    [card] = [m for m in quiz.fake.messages if m.channel == f"D{ANN}" and "coach read" in m.text]
    return card


def buttons(message: Posted) -> dict[str, str]:
    elements = [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    return {e["action_id"]: str(e["value"]) for e in elements}


async def test_the_card_comes_privately_after_the_outline_and_its_buttons_work(
    coached_slack: tuple[SlackQuiz, ScriptedEndpoint],
) -> None:
    quiz, server = coached_slack
    await quiz.command("config coach on")
    server.queue(ticks(*STRONG_TICKS))
    await quiz.command("now")
    await quiz.reply(STRONG, by=ANN)
    assert len(server.requests) == 1
    assert not [m for m in quiz.fake.messages if m.channel == f"D{ANN}"]
    [channel] = await quiz.service.store.channels.list_channels()
    round_ = await quiz.service.store.rounds.latest_round(channel.id)
    assert round_ is not None
    await quiz.press("quiz:reveal", str(round_.id), by=BOB)

    card = coach_card(quiz)
    assert "Inside one server NVLink" in str(card.blocks)
    actions = buttons(card)
    assert set(actions) == {"quiz:coach_accept", "quiz:coach_edit", "quiz:coach_dismiss"}

    await quiz.press_on(card.ts, "quiz:coach_edit", actions["quiz:coach_edit"], by=ANN)
    view = quiz.fake.views[-1]
    [block] = view["blocks"]
    assert block["element"]["type"] == "checkboxes"
    assert [o["value"] for o in block["element"]["initial_options"]] == ["1", "3"]
    await quiz.submit(view, {"covered": ["1", "2", "3"]}, by=ANN)

    grades = await quiz.service.store.learning.round_grades(round_.id)
    assert list(grades.values()) == [Grade.NAILED]


async def test_a_practice_answer_gets_its_card_in_the_im_after_the_outline(
    coached_slack: tuple[SlackQuiz, ScriptedEndpoint],
) -> None:
    quiz, server = coached_slack
    await quiz.command("config coach on")
    server.queue(ticks(*STRONG_TICKS))
    await quiz.command("coach probe off", by=ANN)
    await quiz.command("practice", by=ANN)

    await say_in_im(quiz, ANN, STRONG)
    assert len(server.requests) == 1
    assert not [m for m in quiz.fake.posts(f"D{ANN}") if "coach read" in m.text]
    await say_in_im(quiz, ANN, "A tree halves the latency.")

    texts = [" ".join(m.block_texts()) for m in quiz.fake.posts(f"D{ANN}")]
    outline = next(i for i, t in enumerate(texts) if "Sample answer outline" in t)
    card = next(i for i, t in enumerate(texts) if "coach read your practice answer" in t)
    assert card > outline
    assert "Inside one server NVLink" in texts[card]
    assert len(server.requests) == 1


async def say_in_im(quiz: SlackQuiz, member: str, text: str) -> None:
    response = await quiz.event(
        {
            "type": "message",
            "channel": f"D{member}",
            "channel_type": "im",
            "user": member,
            "text": text,
            "ts": quiz.member_ts(),
        }
    )
    assert response.status == 200


async def test_the_practice_cards_buttons_record_the_practice_grade_once(
    coached_slack: tuple[SlackQuiz, ScriptedEndpoint],
) -> None:
    quiz, server = coached_slack
    await quiz.command("config coach on")
    server.queue(ticks(*STRONG_TICKS))
    await quiz.command("coach probe off", by=ANN)
    await quiz.command("practice", by=ANN)
    await say_in_im(quiz, ANN, STRONG)
    await say_in_im(quiz, ANN, "A tree halves the latency.")
    [card] = [m for m in quiz.fake.posts(f"D{ANN}") if "coach read your practice" in m.text]
    actions = buttons(card)
    assert set(actions) == {"quiz:coach_accept", "quiz:coach_edit", "quiz:coach_dismiss"}

    await quiz.press_on(card.ts, "quiz:coach_edit", actions["quiz:coach_edit"], by=ANN)
    view = quiz.fake.views[-1]
    [block] = view["blocks"]
    assert [o["value"] for o in block["element"]["initial_options"]] == ["1", "3"]
    await quiz.submit(view, {"covered": ["1", "2", "3"]}, by=ANN)
    await quiz.press_on(card.ts, "quiz:coach_accept", actions["quiz:coach_accept"], by=ANN)

    graded = [m for m in quiz.fake.posts(f"D{ANN}") if "Practice graded" in m.text]
    assert [m.text for m in graded] == ["Practice graded: nailed"]
