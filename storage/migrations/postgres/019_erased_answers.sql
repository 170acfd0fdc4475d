-- Mirrors 018_erased_answers.sql.
-- The answers an erasure (`/quiz forget me`) deleted, by round and platform message id,
-- naming no one: the same message delivered again under another event id (a platform's
-- retry or replay), or edited, stores nothing, while the member's later messages do.
CREATE TABLE erased_answers (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    message_id TEXT NOT NULL,
    erased_at TEXT NOT NULL,
    PRIMARY KEY (round_id, message_id)
);
