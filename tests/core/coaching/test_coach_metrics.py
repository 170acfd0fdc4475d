"""The coach's Prometheus counters, counted through the wired path: requests by outcome,
tokens, ticks the verification dropped by reason, and what members did with their cards."""

from __future__ import annotations

from pathlib import Path

from adapters.coach_transport import AiohttpChatTransport
from adapters.ops.metrics import PrometheusMetrics
from bot.coaching.cards import ACCEPT_ACTION, DISMISS_ACTION
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, ticks
from tests.core.coaching.coached import STRONG, STRONG_TICKS, coach_cards, coached_quiz, setup_for
from tests.core.coaching.test_coach_in_the_loop import press
from tests.fakes import FakeClock, FakePlatform

INVENTED = (1, "a quote the answer never says, about rings and chunks")


async def test_the_coach_counts_what_it_does(
    tmp_path: Path,
    platform: FakePlatform,
    clock: FakeClock,
    server: ScriptedEndpoint,
    transport: AiohttpChatTransport,
) -> None:
    metrics = PrometheusMetrics()
    setup = setup_for(server, transport)
    async with coached_quiz("sqlite", tmp_path, platform, clock, setup, metrics=metrics) as quiz:
        await quiz.command("config coach on")
        await quiz.command("now")
        server.queue(ticks(INVENTED, *STRONG_TICKS))
        await quiz.answer("ann", STRONG)
        await quiz.answer("bob", STRONG)  # the same answer: from the cache
        await quiz.react("carol", "💡")
        await press(quiz, "ann", coach_cards(quiz, "ann")[0], ACCEPT_ACTION)
        await press(quiz, "bob", coach_cards(quiz, "bob")[0], DISMISS_ACTION)

    exposed = (await metrics.exposition()).decode()
    assert 'quizbot_coach_requests_total{outcome="answered"} 1.0' in exposed
    assert 'quizbot_coach_requests_total{outcome="cached"} 1.0' in exposed
    assert "quizbot_coach_tokens_total 120.0" in exposed
    assert 'quizbot_coach_dropped_ticks_total{reason="quote_not_in_answer"} 1.0' in exposed
    assert 'quizbot_coach_decisions_total{decision="accepted"} 1.0' in exposed
    assert 'quizbot_coach_decisions_total{decision="dismissed"} 1.0' in exposed
