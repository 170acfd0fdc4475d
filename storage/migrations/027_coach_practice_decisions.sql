-- What the member did with the coach's practice card: accepted (the grade its ticks propose
-- became their practice grade), edited (their grade followed the ticks they kept) or
-- dismissed (nothing recorded). Once only: a second press finds the reading decided.
-- decided_at: when. SQLite cannot change a CHECK in place, so the table is rebuilt (ids
-- kept) with its index.
CREATE TABLE coach_practice_readings_new (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES practice_sessions (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    model TEXT NOT NULL,
    answer TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    cache_key TEXT NOT NULL DEFAULT '',
    key_points INTEGER NOT NULL DEFAULT 0,
    ticks TEXT NOT NULL DEFAULT '[]',
    dropped INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL CHECK (state IN ('pending', 'ready', 'shown', 'unavailable',
        'over_budget', 'accepted', 'edited', 'dismissed')),
    read_at TEXT,
    probe TEXT,
    decided_at TEXT,
    UNIQUE (session_id, model)
);
INSERT INTO coach_practice_readings_new (id, session_id, member_id, model, answer,
    answered_at, cache_key, key_points, ticks, dropped, tokens, state, read_at, probe)
SELECT id, session_id, member_id, model, answer, answered_at, cache_key, key_points, ticks,
    dropped, tokens, state, read_at, probe FROM coach_practice_readings;
DROP TABLE coach_practice_readings;
ALTER TABLE coach_practice_readings_new RENAME TO coach_practice_readings;
CREATE INDEX coach_practice_readings_by_member ON coach_practice_readings (member_id);
