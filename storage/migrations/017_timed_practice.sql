-- Timed practice (`/quiz practice timed MINUTES`): a session's time to answer its question,
-- and when that time ran out with no answer (the session then moved on to the follow-ups).
-- NULL: an untimed session, as every session was until now.
ALTER TABLE practice_sessions ADD COLUMN time_limit_minutes INTEGER
    CHECK (time_limit_minutes IS NULL OR time_limit_minutes > 0);
ALTER TABLE practice_sessions ADD COLUMN timed_out_at TEXT;
