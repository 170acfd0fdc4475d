"""Exactly once across a crash: a process killed while posting the season's champions
posts them after its restart when it had not, and does not post them again when it had
(the post is found on the platform by its outbox key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.kernel.models import ActionKind
from questions.catalog import Catalog
from tests.core.seasons.season_seed import TURN, channel_settings, season_posts, seed_november, turn
from tests.fakes import FakeClock, FakePlatform, SimulatedCrash
from tests.harness import QuizHarness, running_service
from tests.store_reads import round_actions


async def crash_while_posting(quiz: QuizHarness, *, after_send: bool) -> None:
    if after_send:
        quiz.platform.crash_after_send = True
    else:
        quiz.platform.failures.append(SimulatedCrash("before send"))
    with pytest.raises(SimulatedCrash):
        await turn(quiz)
    await quiz.service.stop()
    quiz.clock.advance(minutes=1)


async def test_a_crash_after_the_post_does_not_post_it_again(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await seed_november(quiz)
    channel = await channel_settings(quiz)
    await crash_while_posting(quiz, after_send=True)
    assert len(season_posts(platform)) == 1
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
        last_round = await service.store.seasons.last_round_in_season(
            channel.id, TURN.replace(month=11), TURN
        )
        assert last_round is not None
        actions = await round_actions(service.store, last_round)
    [post] = season_posts(platform)
    [action] = [a for a in actions if a.kind is ActionKind.SEASON]
    assert action.key == f"season:{channel.id}:2026-11"
    assert action.state.value == "done" and action.result_ref == post.id


async def test_a_crash_before_the_post_posts_it_after_the_restart(
    db_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog, quiz: QuizHarness
) -> None:
    await seed_november(quiz)
    await crash_while_posting(quiz, after_send=False)
    assert season_posts(platform) == []
    async with running_service(db_path, [platform], clock, catalog) as service:
        await service.settle()
    [post] = season_posts(platform)
    assert post.card.title == "🏆 Season 2026-11"
