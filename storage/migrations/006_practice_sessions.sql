-- Private practice: each member's sessions in their direct messages with the bot.

CREATE TABLE practice_sessions (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    direct_channel TEXT NOT NULL,     -- the member's DM channel with the bot
    question_id INTEGER NOT NULL REFERENCES questions (id),
    topic TEXT,                       -- the topic asked for; NULL: any
    answers INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL CHECK (state IN ('answer', 'grade')),
    started_at TEXT NOT NULL,
    touched_at TEXT NOT NULL,
    closed_at TEXT,
    closed_reason TEXT                -- graded, stopped, expired
);

-- At most one open session per member.
CREATE UNIQUE INDEX practice_sessions_one_open ON practice_sessions (member_id)
    WHERE closed_at IS NULL;

CREATE INDEX practice_sessions_by_direct ON practice_sessions (platform, direct_channel);
