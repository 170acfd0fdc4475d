-- The learning loop: members grade their own answers after the reveal; FSRS cards per
-- (member, question) and per (channel, question) are rebuilt from these grades.

-- The review log: every grade given. A member's later grade of the same round replaces
-- the earlier one, which stays here with replaced_at set.
CREATE TABLE grades (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    round_id INTEGER REFERENCES rounds (id),  -- NULL: private practice
    channel_id INTEGER REFERENCES channels (id),
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),  -- missed, partly, good, nailed
    graded_at TEXT NOT NULL,
    replaced_at TEXT
);
CREATE UNIQUE INDEX grades_once_per_round
    ON grades (round_id, member_id) WHERE round_id IS NOT NULL AND replaced_at IS NULL;
CREATE INDEX grades_by_member ON grades (member_id, question_id);
CREATE INDEX grades_by_channel ON grades (channel_id, question_id);

CREATE TABLE member_cards (
    member_id INTEGER NOT NULL REFERENCES members (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    stability REAL NOT NULL,
    difficulty REAL NOT NULL,
    due TEXT NOT NULL,
    last_review TEXT NOT NULL,
    reviews INTEGER NOT NULL,
    PRIMARY KEY (member_id, question_id)
);

CREATE TABLE channel_cards (
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    stability REAL NOT NULL,
    difficulty REAL NOT NULL,
    due TEXT NOT NULL,
    last_review TEXT NOT NULL,
    reviews INTEGER NOT NULL,
    PRIMARY KEY (channel_id, question_id)
);

-- A member's target date (an interview, say); no row: 30 days ahead.
CREATE TABLE member_goals (
    member_id INTEGER PRIMARY KEY REFERENCES members (id),
    target_date TEXT NOT NULL  -- YYYY-MM-DD
);
