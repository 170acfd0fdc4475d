"""The SQL that keeps blind answers from being lost (see ``bot.blind.posts``), the same on
SQLite and PostgreSQL: a round closed before its reveal queues the post of its waiting
blind answers in the transaction that closes it, and a channel lists the rounds whose
blind answers are not posted yet."""

from __future__ import annotations

from bot.blind.posts import PLACEHOLDER_PREFIX
from bot.kernel.models import ActionKind
from storage.records import ROUND_COLUMNS

# substr, not a range or LIKE: the same on SQLite and under any PostgreSQL collation
_HAS_WAITING = (
    "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id"
    f" AND substr(a.message_id, 1, {len(PLACEHOLDER_PREFIX)}) = '{PLACEHOLDER_PREFIX}')"
)
_KIND = ActionKind.BLIND_ANSWERS.value


def queue_blind_answers_sql(which: str) -> str:
    """Queue the post of the waiting blind answers of the open, unrevealed round(s) that
    ``which`` (a condition on ``r`` with one parameter) names, run just before they are
    closed. The key is ``bot.kernel.models.action_key``'s. Parameters: now three times, then
    ``which``'s."""
    return (
        "INSERT INTO outbox (round_id, kind, key, state, attempts, next_attempt_at,"
        " created_at, updated_at)"
        f" SELECT r.id, '{_KIND}', 'round:' || r.id || ':{_KIND}', 'pending', 0, ?, ?, ?"
        f" FROM rounds r WHERE {which} AND r.state = 'open' AND r.revealed_at IS NULL"
        f" AND {_HAS_WAITING}"
        " ON CONFLICT (key) DO NOTHING"
    )


ROUNDS_WITH_UNPOSTED_BLIND_ANSWERS = (
    f"SELECT {', '.join(f'r.{c}' for c in ROUND_COLUMNS.split(', '))} FROM rounds r"
    f" WHERE r.channel_id = ? AND {_HAS_WAITING} ORDER BY r.number"
)
