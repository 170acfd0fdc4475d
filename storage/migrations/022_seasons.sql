-- Seasons: each channel's length of season (monthly by default, quarterly, or off) and the
-- role or user group its champions are told to claim (NULL: none); each past season
-- recorded once per channel, its outbox action (kind 'season', key outbox_key) hung on the
-- last round of the season, and the champions it names (the archive of `/quiz season`).
ALTER TABLE channels ADD COLUMN seasons TEXT NOT NULL DEFAULT 'monthly'
    CHECK (seasons IN ('monthly', 'quarterly', 'off'));
ALTER TABLE channels ADD COLUMN season_role TEXT;

CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    season TEXT NOT NULL,             -- "2026-11" (monthly) or "2026-Q4" (quarterly)
    starts_at TEXT NOT NULL,          -- local midnight of its first day, in UTC
    ends_at TEXT NOT NULL,            -- local midnight of the next season's first day
    outbox_key TEXT NOT NULL UNIQUE,  -- "season:<channel>:<season>"
    created_at TEXT NOT NULL,
    UNIQUE (channel_id, season)
);

-- One member per title and season, chosen when the season is recorded.
CREATE TABLE season_champions (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    title TEXT NOT NULL CHECK (title IN ('points', 'improved', 'helpful')),
    member_id INTEGER NOT NULL REFERENCES members (id),
    score REAL NOT NULL,              -- points, the gain in expected recall, helpful reviews
    PRIMARY KEY (season_id, title)
);
CREATE INDEX season_champions_by_member ON season_champions (member_id);
