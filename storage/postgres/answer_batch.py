"""One group-committed batch of answers on PostgreSQL (``WriteAnswers`` of
``storage.sql.answers``).

SQLite learns which rows a batch inserted from ids above the maximum before it, which
holds with one writer; with several replicas ids of concurrent transactions interleave,
so here every insert says what it inserted (``RETURNING``). An event id recorded by
another replica is a duplicate here too: the unique key decides across replicas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.kernel.models import AnswerDraft, AnswerOutcome, AnswerResult
from storage.sql.scoring import draft_params, scored_answer
from storage.sql.session import Session

_INSERT_EVENT = """
INSERT INTO processed_events (platform, event_id, processed_at)
VALUES (:platform, :event_id, :at)
ON CONFLICT DO NOTHING RETURNING id
"""

_INSERT_ANSWER = (
    "INSERT INTO " + scored_answer() + "ON CONFLICT DO NOTHING RETURNING id, scoring, before_reveal"
)


async def write_answers(
    session: Session,
    drafts: Sequence[AnswerDraft],
    rejected: Mapping[int, Exception],
) -> list[AnswerResult | Exception]:
    """Write ``drafts`` (except the indexes in ``rejected``) and return each one's result."""
    results: list[AnswerResult | Exception] = []
    for index, draft in enumerate(drafts):
        if index in rejected:
            results.append(rejected[index])
            continue
        params = draft_params(draft)  # a statement reads the names it has
        event = await session.fetch_one(_INSERT_EVENT, params)
        row = None
        if event is not None:
            row = await session.fetch_one(_INSERT_ANSWER, params)
        if row is None:
            results.append(AnswerResult(AnswerOutcome.DUPLICATE))
            continue
        outcome = AnswerOutcome.SCORED if row["scoring"] else AnswerOutcome.KEPT
        results.append(AnswerResult(outcome, row["id"], bool(row["before_reveal"])))
    return results
