-- Learning from each other. A grade may come from the key points the member ticked
-- (covered: a JSON list of 1-based key point numbers; NULL: a plain grade) and from the
-- member's reviewers (source 'reviews': the median review score, replaced by the member's
-- own grade whenever they give one). Members review each other's answers after the
-- reveal: a 1-4 score, the key points the answer covered, a comment, and the points the
-- review earned its writer (2, or 0 past the round's cap). An admin marks one answer of a
-- round as its best. A channel may name reviewers to the author (reviews_named).
ALTER TABLE grades ADD COLUMN covered TEXT;
ALTER TABLE grades ADD COLUMN source TEXT NOT NULL DEFAULT 'self'
    CHECK (source IN ('self', 'reviews'));
ALTER TABLE channels ADD COLUMN reviews_named INTEGER NOT NULL DEFAULT 0;

CREATE TABLE answer_reviews (
    id INTEGER PRIMARY KEY,
    answer_id INTEGER NOT NULL REFERENCES answers (id),
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    reviewer_id INTEGER NOT NULL REFERENCES members (id),
    score INTEGER NOT NULL CHECK (score BETWEEN 1 AND 4),
    covered TEXT,
    comment TEXT NOT NULL DEFAULT '',
    points INTEGER NOT NULL,
    reviewed_at TEXT NOT NULL,
    UNIQUE (answer_id, reviewer_id)
);
CREATE INDEX answer_reviews_board ON answer_reviews (channel_id, reviewer_id, reviewed_at, points);
CREATE INDEX answer_reviews_by_round ON answer_reviews (round_id, reviewer_id);

CREATE TABLE best_answers (
    round_id INTEGER PRIMARY KEY REFERENCES rounds (id),
    answer_id INTEGER NOT NULL REFERENCES answers (id),
    marked_at TEXT NOT NULL
);
