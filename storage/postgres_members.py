"""Answers and unfinished cards on PostgreSQL: the parts of ``SqliteMembers`` and
``SqliteUnfinishedCards`` whose SQL is SQLite's own.

SQLite learns which rows a batch inserted from ids above the maximum before it, which
holds with one writer; with several replicas ids of concurrent transactions interleave,
so here every insert says what it inserted (``RETURNING``). An event id recorded by
another replica is a duplicate here too: the unique key decides across replicas.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.kernel.models import AnswerDraft, AnswerOutcome, AnswerResult
from storage.postgres_connection import PgConnection
from storage.sqlite_members import SqliteMembers
from storage.sqlite_unfinished_cards import SqliteUnfinishedCards
from storage.timestamps import to_db

_INSERT_EVENT = """
INSERT INTO processed_events (platform, event_id, processed_at) VALUES ($1, $2, $3)
ON CONFLICT DO NOTHING RETURNING id
"""

# As storage.answer_batch: scores when the member has no scoring answer in the round yet,
# earns the bonus when the round was not revealed at the answer's time.
_INSERT_ANSWER = """
INSERT INTO answers (
    round_id, channel_id, member_id, message_id, text, answered_at,
    before_reveal, scoring, base_points, votes, points
)
SELECT fresh.round_id, fresh.channel_id, $2, $3, $4, $5,
       fresh.before_reveal, fresh.scoring,
       fresh.scoring * ($6 + fresh.before_reveal * $7), 0,
       fresh.scoring * ($6 + fresh.before_reveal * $7)
FROM (
    SELECT r.id AS round_id, r.channel_id AS channel_id,
           CASE WHEN r.revealed_at IS NULL OR r.revealed_at > $5 THEN 1 ELSE 0 END
               AS before_reveal,
           CASE WHEN EXISTS (
               SELECT 1 FROM answers s
               WHERE s.round_id = r.id AND s.member_id = $2 AND s.scoring = 1
           ) THEN 0 ELSE 1 END AS scoring
    FROM rounds r
    WHERE r.id = $1
) AS fresh
ON CONFLICT DO NOTHING
RETURNING id, scoring, before_reveal
"""


class PostgresMembers(PgConnection, SqliteMembers, SqliteUnfinishedCards):
    """Group-committed answers written with RETURNING; card parts appended as JSON."""

    # A change of a blind answer waits for a reveal or close of its round committing
    # meanwhile and then sees it (READ COMMITTED alone checks the statement's snapshot).
    _ROUND_LOCK = " FOR SHARE"

    async def _write_answer_batch(
        self, drafts: Sequence[AnswerDraft]
    ) -> list[AnswerResult | Exception]:
        rejected = await self._reject_unknown_references(drafts)
        results: list[AnswerResult | Exception] = []
        async with self._session() as session:
            conn = session.conn
            for index, draft in enumerate(drafts):
                if index in rejected:
                    results.append(rejected[index])
                    continue
                at = to_db(draft.at)
                event = await conn.fetchval(_INSERT_EVENT, draft.platform, draft.event_id, at)
                row = None
                if event is not None:
                    row = await conn.fetchrow(
                        _INSERT_ANSWER,
                        draft.round_id,
                        draft.member_id,
                        draft.message_id,
                        draft.text,
                        at,
                        draft.points_for_answer,
                        draft.bonus_before_reveal,
                    )
                if row is None:
                    results.append(AnswerResult(AnswerOutcome.DUPLICATE))
                    continue
                outcome = AnswerOutcome.SCORED if row["scoring"] else AnswerOutcome.KEPT
                results.append(AnswerResult(outcome, row["id"], bool(row["before_reveal"])))
        return results

    async def record_card_part(self, key: str, message_id: str) -> None:
        await self._pooled().execute(
            "INSERT INTO unfinished_cards (key, message_ids) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE"
            " SET message_ids = (unfinished_cards.message_ids::jsonb || to_jsonb($3::text))::text",
            key,
            json.dumps([message_id]),
            message_id,
        )
