"""The coach on the lead's page, on both store backends, against a scripted endpoint: shown
only while the coach is on in the channel; its agreement with teammates' review ticks,
whether the stand-in rule is met, the month's requests and tokens, and what members did with
its cards (only once enough members decided that no one is given away)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.coach_transport import AiohttpChatTransport
from bot.coaching.cards import ACCEPT_ACTION, DISMISS_ACTION
from bot.rounds.cards import REVIEW_ACTION
from bot.service import QuizService
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, scripted_endpoint, ticks
from tests.core.coaching.coached import (
    STRONG,
    STRONG_TICKS,
    coach_cards,
    coached_catalog,
    setup_for,
)
from tests.core.coaching.test_coach_in_the_loop import coach_on, press, reveal
from tests.core.dashboard.team import dashboard_config, link_of
from tests.core.dashboard.test_links_and_pages import render
from tests.core.reviews.test_peer_reviews import press as review_press
from tests.core.reviews.test_peer_reviews import submit as review_submit
from tests.fakes import FakeClock, FakePlatform
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS, open_store

TOKENS_A_READING = 120  # the scripted endpoint's usage of one reply


@pytest.fixture
async def server() -> AsyncIterator[ScriptedEndpoint]:
    async with scripted_endpoint() as endpoint:
        yield endpoint


@pytest.fixture(params=BACKENDS)
async def quiz(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    server: ScriptedEndpoint,
) -> AsyncIterator[QuizHarness]:
    """A quiz with the pages served and the coach configured (not yet on in the channel)."""
    async with AiohttpChatTransport() as transport, open_store(request.param, tmp_path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=coached_catalog(),
            clock=clock,
            config=dashboard_config(default_schedule=None),
            rng=random.Random(7),
            background=False,
            coach=setup_for(server, transport),
        )
        await service.start()
        try:
            yield QuizHarness(service, platform, clock)
        finally:
            await service.stop()


async def leads_page(quiz: QuizHarness) -> str:
    status, html = await render(quiz, link_of(await quiz.command("dashboard")))
    assert status == 200
    return html


def coach_section(html: str) -> str:
    start = html.index('<section id="answer-coach">')
    return html[start : html.index("</section>", start)]


async def read_and_revealed(quiz: QuizHarness, server: ScriptedEndpoint, names: list[str]) -> None:
    """A round each of ``names`` answered (each answer read: points 1 and 3), its outline out."""
    await quiz.command("now")
    for n, name in enumerate(names):
        server.queue(ticks(*STRONG_TICKS))
        await quiz.answer(name, f"{STRONG} Answer {n}.")
    await reveal(quiz)


async def test_the_section_is_there_only_while_the_coach_is_on(quiz: QuizHarness) -> None:
    await quiz.command("now")  # the channel's quiz, the coach off
    assert "<h2>Answer coach</h2>" not in await leads_page(quiz)

    await coach_on(quiz)

    html = await leads_page(quiz)
    assert "<h2>Answer coach</h2>" in html
    section = coach_section(html)
    assert "Computed from:" in section and "teammates&#x27; review ticks" in section
    assert "<dt>Answers both judged</dt><dd>0</dd>" in section
    assert "<dt>Stand-in rule</dt><dd>not met" in section

    await quiz.command("config coach off")
    assert "<h2>Answer coach</h2>" not in await leads_page(quiz)


async def test_it_shows_the_agreement_the_rule_and_the_months_spending(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    await read_and_revealed(quiz, server, ["ann"])
    round_ = await quiz.round()
    form = (await review_press(quiz, "bob", REVIEW_ACTION, f"r{round_.id}")).form
    assert form is not None
    await review_submit(
        quiz, "bob", form, {"answer": "1", "score": "3", "covered": "1 2", "comment": ""}
    )

    section = coach_section(await leads_page(quiz))

    # the coach ticked 1 and 3, bob 1 and 2: one of two each way
    assert "<dt>Precision</dt><dd>50%</dd>" in section
    assert "<dt>Recall</dt><dd>50%</dd>" in section
    assert "<dt>Answers both judged</dt><dd>1</dd>" in section
    assert "<dt>Stand-in rule</dt><dd>not met (precision ≥ 70% and recall ≥ 70%" in section
    assert "<dt>Requests this month (workspace)</dt><dd>1</dd>" in section
    assert f"<dt>Tokens this month (workspace)</dt><dd>{TOKENS_A_READING}</dd>" in section
    assert "stand in for no one" in section


async def test_it_says_when_the_rule_is_met(
    quiz: QuizHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def judged_by_both(channel_id: int) -> list[tuple[frozenset[int], frozenset[int]]]:
        return [(frozenset({1, 2}), frozenset({1, 2}))] * 20

    monkeypatch.setattr(quiz.service.store.coach, "judged_by_both", judged_by_both)
    await quiz.command("now")
    await coach_on(quiz)

    section = coach_section(await leads_page(quiz))

    assert "<dt>Precision</dt><dd>100%</dd>" in section
    assert "<dt>Stand-in rule</dt><dd>met (" in section
    assert "stand in as a grade for members who never grade" in section


async def test_acceptance_waits_for_three_members_then_counts_each_decision(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    await read_and_revealed(quiz, server, ["ann", "bob", "dan"])
    [ann_card] = coach_cards(quiz, "ann")
    await press(quiz, "ann", ann_card, ACCEPT_ACTION)

    alone = coach_section(await leads_page(quiz))
    assert "once 3 members have decided" in alone and "(1 so far)" in alone
    assert "accepted as read" not in alone

    [bob_card] = coach_cards(quiz, "bob")
    await press(quiz, "bob", bob_card, ACCEPT_ACTION)
    [dan_card] = coach_cards(quiz, "dan")
    await press(quiz, "dan", dan_card, DISMISS_ACTION)

    section = coach_section(await leads_page(quiz))
    assert "<tr><td>accepted as read</td><td>2</td><td>67%</td></tr>" in section
    assert "<tr><td>edited</td><td>0</td><td>0%</td></tr>" in section
    assert "<tr><td>dismissed</td><td>1</td><td>33%</td></tr>" in section
    assert "<dt>Requests this month (workspace)</dt><dd>3</dd>" in section
