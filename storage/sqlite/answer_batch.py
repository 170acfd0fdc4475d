"""One group-committed batch of answers on SQLite (``WriteAnswers`` of ``storage.sql.answers``).

Runs inside the caller's open transaction. Per batch it needs four statements
whatever the batch size: two ``executemany`` inserts and two selects that learn
which rows are new (ids above the table's maximum before the batch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.kernel.models import AnswerDraft, AnswerOutcome, AnswerResult
from storage.sql.scoring import draft_params, scored_answer
from storage.sql.session import Session

_INSERT_EVENT = """
INSERT OR IGNORE INTO processed_events (platform, event_id, processed_at)
VALUES (:platform, :event_id, :at)
"""

# The answer is written only when its event was recorded by this batch. It scores by
# the rule (earlier rows of the same executemany count: they are already inserted).
_INSERT_ANSWER = "INSERT OR IGNORE INTO " + scored_answer(
    only_if="""
      AND EXISTS (
          SELECT 1 FROM processed_events e
          WHERE e.platform = :platform AND e.event_id = :event_id AND e.id > :events_before
      )"""
)

# What the batch inserted: its new events, and its new answers by (round, message).
_NEW_ROWS = """
SELECT 'event', platform, event_id, NULL, NULL, NULL FROM processed_events WHERE id > ?
UNION ALL
SELECT 'answer', round_id, message_id, id, scoring, before_reveal FROM answers WHERE id > ?
"""


async def write_answers(
    session: Session,
    drafts: Sequence[AnswerDraft],
    rejected: Mapping[int, Exception],
) -> list[AnswerResult | Exception]:
    """Write ``drafts`` (except the indexes in ``rejected``) and return each one's result."""
    rows = await session.fetch(
        "SELECT (SELECT COALESCE(MAX(id), 0) FROM processed_events),"
        " (SELECT COALESCE(MAX(id), 0) FROM answers)"
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
        params.append({**draft_params(draft), "events_before": events_before})
    if params:
        await session.execute_many(_INSERT_EVENT, params)
        await session.execute_many(_INSERT_ANSWER, params)

    new_events: set[tuple[str, str]] = set()
    new_answers: dict[tuple[int, str], tuple[int, bool, bool]] = {}
    for row in await session.fetch(_NEW_ROWS, (events_before, answers_before)):
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
