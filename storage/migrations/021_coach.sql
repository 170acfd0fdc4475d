-- The answer coach, wired in. An admin turns it on per channel (channels.coach); a member
-- may opt out of it everywhere (coach_opt_outs). Each assessed answer keeps the coach's
-- verified ticks with their quotes (ticks: a JSON list of {"point", "quote"}), how many
-- proposed ticks the verification dropped, what it cost, and where it stands: ready
-- (assessed, its card waits for the outline), shown (its card is sent), accepted, edited,
-- dismissed, unavailable (the endpoint failed past its retries), over_budget. accepted:
-- the key points (a JSON list) the author accepted, as they were or edited; the answer's
-- quality points follow them. The same answer text, key points and model give the same
-- ticks: cache_key finds an earlier assessment's ticks, and no request is sent.
ALTER TABLE channels ADD COLUMN coach INTEGER NOT NULL DEFAULT 0;

CREATE TABLE coach_opt_outs (
    member_id INTEGER PRIMARY KEY REFERENCES members (id),
    since TEXT NOT NULL
);

CREATE TABLE coach_assessments (
    id INTEGER PRIMARY KEY,
    answer_id INTEGER NOT NULL REFERENCES answers (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    model TEXT NOT NULL,
    cache_key TEXT NOT NULL,
    key_points INTEGER NOT NULL,
    ticks TEXT NOT NULL DEFAULT '[]',
    dropped INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL CHECK (state IN ('ready', 'shown', 'accepted', 'edited', 'dismissed',
        'unavailable', 'over_budget')),
    accepted TEXT,
    assessed_at TEXT NOT NULL,
    decided_at TEXT,
    UNIQUE (answer_id, model)
);
CREATE INDEX coach_assessments_by_cache_key ON coach_assessments (cache_key, state);
CREATE INDEX coach_assessments_by_member ON coach_assessments (member_id);

-- What the coach spent, per workspace and day (its token budget, the month's figures) and
-- per member and day (their request limit). A request served from the cache costs nothing.
CREATE TABLE coach_workspace_usage (
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    day TEXT NOT NULL,
    requests INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (platform, workspace, day)
);

CREATE TABLE coach_member_usage (
    member_id INTEGER NOT NULL REFERENCES members (id),
    day TEXT NOT NULL,
    requests INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (member_id, day)
);
