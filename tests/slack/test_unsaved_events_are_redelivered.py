"""An answer or reaction the store could not write is answered non-2xx, so Slack
delivers it again; the redelivery counts once."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.slack.driver import SlackQuiz
from tests.storage.write_lock import SHORT_BUSY_TIMEOUT_MS, held_write_lock


@pytest.fixture
def busy_timeout_ms() -> int:
    return SHORT_BUSY_TIMEOUT_MS


async def test_answers_the_store_cannot_write_are_answered_503_and_count_once_redelivered(
    slack_quiz: SlackQuiz, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    events = [
        (
            f"Ev0LOST{n}",
            {
                "type": "message",
                "channel": quiz.channel,
                "user": f"U{n}",
                "text": f"answer {n}",
                "ts": quiz.member_ts(),
                "thread_ts": quiz.question().ts,
            },
        )
        for n in range(5)
    ]
    with held_write_lock(db_path), caplog.at_level(logging.WARNING):
        statuses = [(await quiz.event(e, event_id=i)).status for i, e in events]
    assert statuses == [503] * len(events)
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    assert await quiz.answer_count() == 0

    for retry in (1, 2):
        statuses = [(await quiz.event(e, event_id=i, retry_num=retry)).status for i, e in events]
        assert statuses == [200] * len(events)
    assert await quiz.answer_count() == len(events)


async def test_a_reveal_reaction_the_store_cannot_write_is_redelivered_and_reveals_once(
    slack_quiz: SlackQuiz, db_path: Path
) -> None:
    quiz = slack_quiz
    await quiz.command("now")
    event = {
        "type": "reaction_added",
        "user": "U1",
        "reaction": "bulb",
        "item": {"type": "message", "channel": quiz.channel, "ts": quiz.question().ts},
    }
    with held_write_lock(db_path):
        assert (await quiz.event(event, event_id="Ev0REACT")).status == 503
    for retry in (1, 2):
        assert (await quiz.event(event, event_id="Ev0REACT", retry_num=retry)).status == 200
    outlines = [m for m in quiz.thread() if m.block_texts()[0] == "Sample answer outline"]
    assert len(outlines) == 1
