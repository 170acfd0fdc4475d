-- The outbox also carries actions that belong to no round: cards sent to one member's
-- direct messages (private practice, daily reminders). Such a row has no round_id; it
-- names its destination (target_platform, target_workspace, target_channel) and carries
-- the card to send as JSON. A round's action keeps round_id and leaves these NULL.
-- SQLite cannot relax NOT NULL in place, so the table is rebuilt (ids kept).
CREATE TABLE outbox_new (
    id INTEGER PRIMARY KEY,
    round_id INTEGER REFERENCES rounds (id),
    kind TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    result_ref TEXT,
    last_error TEXT,
    target_platform TEXT,
    target_workspace TEXT,
    target_channel TEXT,
    card TEXT,
    CHECK ((round_id IS NULL) = (target_channel IS NOT NULL))
);
INSERT INTO outbox_new (id, round_id, kind, key, state, attempts, next_attempt_at,
    created_at, updated_at, result_ref, last_error)
SELECT id, round_id, kind, key, state, attempts, next_attempt_at,
    created_at, updated_at, result_ref, last_error FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_by_round ON outbox (round_id);

-- Daily review reminders: one per member, at a local time in a timezone, sent to the
-- member's DM channel with the bot. Each day's reminder is an outbox action keyed
-- remind:<member>:<local date>, so a member gets at most one per local day.
CREATE TABLE reminders (
    member_id INTEGER PRIMARY KEY REFERENCES members (id),
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    direct_channel TEXT NOT NULL,     -- the member's DM channel with the bot
    local_time TEXT NOT NULL,         -- HH:MM, 24-hour
    timezone TEXT NOT NULL,           -- an IANA name
    updated_at TEXT NOT NULL
);
