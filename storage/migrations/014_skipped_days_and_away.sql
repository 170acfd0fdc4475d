-- Holidays and time away.
-- skipped_days: a channel's local dates (in its timezone, YYYY-MM-DD) with no scheduled
-- question: a slot on such a date neither posts nor is caught up after downtime.
CREATE TABLE skipped_days (
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    day TEXT NOT NULL,                -- YYYY-MM-DD, the channel's local date
    created_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, day)
);

-- away_periods: a member's time away in a workspace (all its channels), kept as history
-- because streaks are recomputed from it: a scheduled round on a local date inside a
-- period neither counts toward nor breaks the member's streak. Both days are inclusive
-- (away from first_day through last_day). Keyed by the platform's workspace and member
-- ids, as every feature that asks (reminders, notifications) knows them.
CREATE TABLE away_periods (
    id INTEGER PRIMARY KEY,
    workspace TEXT NOT NULL,
    member TEXT NOT NULL,
    first_day TEXT NOT NULL,          -- YYYY-MM-DD
    last_day TEXT NOT NULL,           -- YYYY-MM-DD, inclusive
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK (first_day <= last_day)
);
CREATE INDEX away_periods_by_member ON away_periods (workspace, member, last_day);
