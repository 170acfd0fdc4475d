"""The scoring rule, written once for both backends: the first answer of a member in a
round scores, with a bonus when the round was not revealed at the answer's time; a message
whose answer an erasure deleted (``erased_answers``) is not recorded again.

``scored_answer`` is the ``INSERT``'s column list and ``SELECT``; each backend says how it
skips a duplicate and learns what was inserted (SQLite: ``INSERT OR IGNORE`` and a look at
the new ids after the batch; PostgreSQL: ``ON CONFLICT DO NOTHING RETURNING``). Named
parameters: round_id, member_id, message_id, text, at, points, bonus.
"""

from __future__ import annotations

from typing import Any

from bot.kernel.models import AnswerDraft
from storage.timestamps import to_db


def scored_answer(*, only_if: str = "") -> str:
    """``(columns) SELECT ...`` of one answer, scored by the rule; ``only_if`` is a further
    condition (``AND ...``) on the answer's round row."""
    return f"""answers (
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
    WHERE r.id = :round_id AND NOT EXISTS (
        SELECT 1 FROM erased_answers x WHERE x.round_id = r.id AND x.message_id = :message_id
    ){only_if}
) AS fresh
"""


def draft_params(draft: AnswerDraft) -> dict[str, Any]:
    """The named parameters of :func:`scored_answer` for ``draft``, and its event's."""
    return {
        "platform": draft.platform,
        "event_id": draft.event_id,
        "at": to_db(draft.at),
        "round_id": draft.round_id,
        "member_id": draft.member_id,
        "message_id": draft.message_id,
        "text": draft.text,
        "points": draft.points_for_answer,
        "bonus": draft.bonus_before_reveal,
    }
