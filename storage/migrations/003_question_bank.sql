-- The workspace question bank: suggestions from chat and their review, each workspace's own
-- questions (their `questions` row has pack 'workspace:<platform>:<workspace>'), workspace
-- overrides of bundled questions, errata flags, and leaderboard bonuses.
-- Questions are stored as the JSON of the pack model's Question.

CREATE TABLE suggestions (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
    created_at TEXT NOT NULL,
    decided_at TEXT,
    decided_by INTEGER REFERENCES members (id),
    reason TEXT,
    question_id INTEGER REFERENCES questions (id)
);
CREATE INDEX suggestions_by_workspace ON suggestions (platform, workspace, state);

CREATE TABLE workspace_questions (
    question_id INTEGER PRIMARY KEY REFERENCES questions (id),
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    body TEXT NOT NULL,
    suggestion_id INTEGER REFERENCES suggestions (id),
    updated_at TEXT NOT NULL
);
CREATE INDEX workspace_questions_by_workspace ON workspace_questions (platform, workspace);

CREATE TABLE question_overrides (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    question_id INTEGER NOT NULL REFERENCES questions (id),
    body TEXT NOT NULL,
    updated_by INTEGER NOT NULL REFERENCES members (id),
    updated_at TEXT NOT NULL,
    UNIQUE (platform, workspace, question_id)
);

CREATE TABLE flags (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    resolved_at TEXT,
    resolution TEXT
);
CREATE INDEX flags_open ON flags (platform, workspace, resolved_at);

-- Points outside answers (an approved suggestion), counted on the channel's leaderboards.
CREATE TABLE bonuses (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    points INTEGER NOT NULL,
    reason TEXT NOT NULL,
    awarded_at TEXT NOT NULL,
    suggestion_id INTEGER UNIQUE REFERENCES suggestions (id)
);
CREATE INDEX bonuses_board ON bonuses (channel_id, member_id, awarded_at, points);
