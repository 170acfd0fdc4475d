"""One group-committed batch of answers: the SQL that decides each answer's outcome.

Runs inside the caller's open transaction. Per batch it needs four statements
whatever the batch size: two ``executemany`` inserts and two selects that learn
which rows are new (ids above the table's maximum before the batch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from bot.kernel.models import AnswerDraft, AnswerOutcome, AnswerResult
from storage.timestamps import to_db

_INSERT_EVENT = """
INSERT OR IGNORE INTO processed_events (platform, event_id, processed_at)
VALUES (:platform, :event_id, :at)
"""

# The answer is written only when its event was recorded by this batch. It
# scores when the member has no scoring answer in the round yet (earlier rows
# of the same executemany count: they are already inserted), and earns the
# bonus when the round was not revealed at the answer's time.
_INSERT_ANSWER = """
INSERT OR IGNORE INTO answers (
    round_id, channel_id, member_id, message_id, text, answered_at,
    before_reveal, scoring, base_points, votes, points
)
SELECT fresh.round_id, fresh.channel_id, :member_id, :message_id, :text, :at,
       fresh.before_reveal, fresh.scoring,
       fresh.scoring * (:points + fresh.before_reveal * :bonus), 0,
       fresh.scoring * (:points + fresh.before_reveal * :bonus)
FROM (
    SELECT r.id AS round_id, r.channel_id AS channel_id,
           CASE WHEN r.revealed_at IS NULL OR r.revealed_at > :at THEN 1 ELSE 0 END
               AS before_reveal,
           CASE WHEN EXISTS (
               SELECT 1 FROM answers s
               WHERE s.round_id = r.id AND s.member_id = :member_id AND s.scoring = 1
           ) THEN 0 ELSE 1 END AS scoring
    FROM rounds r
    WHERE r.id = :round_id
      AND EXISTS (
          SELECT 1 FROM processed_events e
          WHERE e.platform = :platform AND e.event_id = :event_id AND e.id > :events_before
      )
) AS fresh
"""

# What the batch inserted: its new events, and its new answers by (round, message).
_NEW_ROWS = """
SELECT 'event', platform, event_id, NULL, NULL, NULL FROM processed_events WHERE id > ?
UNION ALL
SELECT 'answer', round_id, message_id, id, scoring, before_reveal FROM answers WHERE id > ?
"""


async def write_answers(
    conn: aiosqlite.Connection,
    drafts: Sequence[AnswerDraft],
    rejected: Mapping[int, Exception],
) -> list[AnswerResult | Exception]:
    """Write ``drafts`` (except the indexes in ``rejected``) and return each one's result."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM processed_events),"
            " (SELECT COALESCE(MAX(id), 0) FROM answers)"
        )
    )
    events_before, answers_before = int(rows[0][0]), int(rows[0][1])

    seen_events: set[tuple[str, str]] = set()
    repeated_in_batch: set[int] = set()
    params: list[dict[str, Any]] = []
    for index, draft in enumerate(drafts):
        if index in rejected:
            continue
        event = (draft.platform, draft.event_id)
        if event in seen_events:
            repeated_in_batch.add(index)
            continue
        seen_events.add(event)
        params.append(
            {
                "platform": draft.platform,
                "event_id": draft.event_id,
                "at": to_db(draft.at),
                "round_id": draft.round_id,
                "member_id": draft.member_id,
                "message_id": draft.message_id,
                "text": draft.text,
                "points": draft.points_for_answer,
                "bonus": draft.bonus_before_reveal,
                "events_before": events_before,
            }
        )
    if params:
        await conn.executemany(_INSERT_EVENT, params)
        await conn.executemany(_INSERT_ANSWER, params)

    new_events: set[tuple[str, str]] = set()
    new_answers: dict[tuple[int, str], tuple[int, bool, bool]] = {}
    for row in await conn.execute_fetchall(_NEW_ROWS, (events_before, answers_before)):
        if row[0] == "event":
            new_events.add((row[1], row[2]))
        else:
            new_answers[(int(row[1]), row[2])] = (int(row[3]), bool(row[4]), bool(row[5]))
    results: list[AnswerResult | Exception] = []
    for index, draft in enumerate(drafts):
        if index in rejected:
            results.append(rejected[index])
            continue
        fresh = index not in repeated_in_batch and (draft.platform, draft.event_id) in new_events
        new = new_answers.pop((draft.round_id, draft.message_id), None) if fresh else None
        if new is None:
            results.append(AnswerResult(AnswerOutcome.DUPLICATE))
            continue
        answer_id, scoring, before_reveal = new
        outcome = AnswerOutcome.SCORED if scoring else AnswerOutcome.KEPT
        results.append(AnswerResult(outcome, answer_id, before_reveal))
    return results
