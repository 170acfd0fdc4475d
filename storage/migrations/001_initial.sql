-- The initial schema. Portable on purpose (a PostgreSQL store will follow):
-- timestamps are ISO-8601 UTC text 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (fixed width,
-- so text order is time order), booleans are 0/1 integers, lists are JSON text.
-- Only the id columns differ (INTEGER PRIMARY KEY here, identity columns there).

CREATE TABLE channels (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    channel TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    timezone TEXT NOT NULL,
    schedule TEXT,
    topics TEXT,                      -- JSON array of topic slugs; NULL: every topic
    reveal_emoji TEXT NOT NULL,
    reveal_min_reactors INTEGER NOT NULL,
    followup_policy TEXT NOT NULL,
    grace_hours REAL NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    disabled_reason TEXT,
    UNIQUE (platform, workspace, channel)
);

CREATE TABLE questions (
    id INTEGER PRIMARY KEY,
    pack TEXT NOT NULL,
    question TEXT NOT NULL,           -- the question's id inside its pack
    topic TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    UNIQUE (pack, question)
);

CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    number INTEGER NOT NULL,
    scheduled_for TEXT NOT NULL,
    scheduled INTEGER NOT NULL CHECK (scheduled IN (0, 1)),
    state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
    created_at TEXT NOT NULL,
    revealed_at TEXT,
    question_message TEXT,
    thread TEXT,
    closed_at TEXT,
    UNIQUE (channel_id, scheduled_for),
    UNIQUE (channel_id, number)
);
CREATE UNIQUE INDEX rounds_one_open_per_channel ON rounds (channel_id) WHERE state = 'open';
CREATE INDEX rounds_by_question_message ON rounds (channel_id, question_message);
CREATE INDEX rounds_by_thread ON rounds (channel_id, thread);
CREATE INDEX rounds_by_question ON rounds (channel_id, question_id);

CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    member TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    UNIQUE (platform, workspace, member)
);

CREATE TABLE answers (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    channel_id INTEGER NOT NULL REFERENCES channels (id),  -- copied from the round, for boards
    member_id INTEGER NOT NULL REFERENCES members (id),
    message_id TEXT NOT NULL,
    text TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    edited_at TEXT,
    before_reveal INTEGER NOT NULL CHECK (before_reveal IN (0, 1)),
    scoring INTEGER NOT NULL CHECK (scoring IN (0, 1)),  -- the member's first answer in the round
    base_points INTEGER NOT NULL,
    votes INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL,          -- base_points plus capped votes, kept up to date on vote
    UNIQUE (round_id, message_id)
);
CREATE UNIQUE INDEX answers_one_scoring_per_member ON answers (round_id, member_id)
    WHERE scoring = 1;
-- Covers the leaderboard queries (all-time and since a date) without touching the table.
CREATE INDEX answers_leaderboard ON answers (channel_id, member_id, answered_at, points, scoring);

CREATE TABLE votes (
    id INTEGER PRIMARY KEY,
    answer_id INTEGER NOT NULL REFERENCES answers (id),
    voter_id INTEGER NOT NULL REFERENCES members (id),
    voted_at TEXT NOT NULL,
    UNIQUE (answer_id, voter_id)
);

CREATE TABLE reveal_reactors (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    reacted_at TEXT NOT NULL,
    UNIQUE (round_id, member_id)
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    kind TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    result_ref TEXT,
    last_error TEXT
);
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_by_round ON outbox (round_id);

CREATE TABLE processed_events (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    event_id TEXT NOT NULL,
    processed_at TEXT NOT NULL,
    UNIQUE (platform, event_id)
);

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
