-- The answer coach in private practice. A practice session's answer to its question is read
-- beside the loop like a channel's first answer; practice answers are not stored elsewhere,
-- so the text the coach reads is kept here, with the member, until the member is erased
-- (and it is in their export). state: pending (queued, not read yet), ready (read, its card
-- waits for the session's outline), shown, unavailable (the endpoint failed past its
-- retries), over_budget. ticks: the verified ticks, as coach_assessments keeps them.
-- probe: the coach's own follow-up on the first key point the answer missed (the
-- interviewer's probe), asked after the pack's follow-ups; NULL: none.
CREATE TABLE coach_practice_readings (
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
        'over_budget')),
    read_at TEXT,
    probe TEXT,
    UNIQUE (session_id, model)
);
CREATE INDEX coach_practice_readings_by_member ON coach_practice_readings (member_id);

-- Members who turned the interviewer's probe off (`/quiz coach probe off`).
CREATE TABLE coach_probe_opt_outs (
    member_id INTEGER PRIMARY KEY REFERENCES members (id),
    since TEXT NOT NULL
);
