-- Mock interviews in pairs. A member of a quiz channel opts in (pair_members: the topics
-- they want to be interviewed on, a JSON list, and the ISO week they skip, if any); each
-- channel has a weekly pairing slot (pair_schedules; no row: Monday 10:00). A pairing is
-- recorded once per channel and ISO week (pairings, keyed pair:<channel>:<week>) with its
-- pairs (pair_groups: two or three members, a JSON list of ids, and where they meet). A
-- rating is an interviewer's 1-4 score and the key points the candidate covered, given once
-- per (group, interviewer). A practice session counts the hints it revealed.
CREATE TABLE pair_members (
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    member TEXT NOT NULL,              -- the member's id on the channel's platform
    display_name TEXT NOT NULL DEFAULT '',
    direct_channel TEXT,               -- their DM channel with the bot, for the brief
    topics TEXT NOT NULL DEFAULT '[]',
    timezone TEXT NOT NULL,
    skip_week TEXT,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, member_id)
);

CREATE TABLE pair_schedules (
    channel_id INTEGER PRIMARY KEY REFERENCES channels (id),
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    schedule TEXT
);

CREATE TABLE pairings (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    week TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    paired_at TEXT NOT NULL,
    UNIQUE (channel_id, week)
);

CREATE TABLE pair_groups (
    id INTEGER PRIMARY KEY,
    pairing_id INTEGER NOT NULL REFERENCES pairings (id),
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    week TEXT NOT NULL,
    members TEXT NOT NULL,
    conversation TEXT
);
CREATE INDEX pair_groups_by_channel ON pair_groups (channel_id, week);

-- the question each candidate of a group is interviewed on (their interviewer's brief)
CREATE TABLE pair_briefs (
    group_id INTEGER NOT NULL REFERENCES pair_groups (id),
    candidate_id INTEGER NOT NULL REFERENCES members (id),
    interviewer_id INTEGER NOT NULL REFERENCES members (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    PRIMARY KEY (group_id, candidate_id)
);

CREATE TABLE pair_ratings (
    group_id INTEGER NOT NULL REFERENCES pair_groups (id),
    interviewer_id INTEGER NOT NULL REFERENCES members (id),
    candidate_id INTEGER NOT NULL REFERENCES members (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    score INTEGER NOT NULL CHECK (score BETWEEN 1 AND 4),
    covered TEXT,
    rated_at TEXT NOT NULL,
    PRIMARY KEY (group_id, interviewer_id)
);

ALTER TABLE practice_sessions ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
