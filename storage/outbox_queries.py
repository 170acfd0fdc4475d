"""The SQL of the outbox worker's queries, driven by the due index whatever the history size.

``outbox_due`` is (state, next_attempt_at): pending actions are a handful of
index entries however many completed ones a year leaves behind. The platform
filter is a correlated ``EXISTS`` over each due row's round and channel (two
primary-key lookups), never a list of every round of a platform; a direct action
(no round) names its platform itself (``target_platform``). ``INDEXED BY``
pins the plan: once ``PRAGMA optimize`` has analyzed a table of only completed
actions, the planner would otherwise believe ``state = 'pending'`` matches
every row and probe the outbox once per round instead.
"""

from __future__ import annotations

from storage.records import OUTBOX_COLUMNS


def _platform_filter(platforms: int | None) -> str:
    """Parameters: the platforms twice (the direct actions', then the rounds')."""
    if platforms is None:
        return ""
    marks = ", ".join("?" for _ in range(platforms))
    return (
        f" AND (outbox.target_platform IN ({marks})"
        " OR EXISTS (SELECT 1 FROM rounds r JOIN channels c ON c.id = r.channel_id"
        f" WHERE r.id = outbox.round_id AND c.platform IN ({marks})))"
    )


def due_actions_sql(platforms: int | None) -> str:
    """Due pending actions, oldest first; parameters: now, *platforms, *platforms, limit."""
    return (
        f"SELECT {OUTBOX_COLUMNS} FROM outbox INDEXED BY outbox_due"
        f" WHERE state = 'pending' AND next_attempt_at <= ?{_platform_filter(platforms)}"
        " ORDER BY id LIMIT ?"
    )


def next_due_sql(platforms: int | None) -> str:
    """The first time a pending action falls due after a time; parameters: after,
    *platforms, *platforms."""
    return (
        "SELECT next_attempt_at FROM outbox INDEXED BY outbox_due"
        f" WHERE state = 'pending' AND next_attempt_at > ?{_platform_filter(platforms)}"
        " ORDER BY next_attempt_at LIMIT 1"
    )


# Done actions due before the cutoff, in index order after a cursor (next_attempt_at, id).
# next_attempt_at <= updated_at for a done action, so this range holds every action
# completed before the cutoff; the caller checks updated_at and the round (a direct
# action has none: r.state is NULL).
DONE_ACTIONS_BEFORE = """
SELECT o.id, o.next_attempt_at, o.kind, o.updated_at, o.round_id, r.state, r.revealed_at
FROM outbox o INDEXED BY outbox_due LEFT JOIN rounds r ON r.id = o.round_id
WHERE o.state = 'done' AND o.next_attempt_at < :cutoff
  AND (o.next_attempt_at > :after_at OR (o.next_attempt_at = :after_at AND o.id > :after_id))
ORDER BY o.next_attempt_at, o.id
LIMIT :limit
"""

# The oldest recorded events, oldest first (ids grow with processed_at).
OLDEST_EVENTS = "SELECT id, processed_at FROM processed_events ORDER BY id LIMIT ?"
