-- A grade may come from the coach (source 'coach'): for a member who has not graded the
-- round when the coach's card of their answer is due, the grade its verified ticks propose
-- stands in, while the coach meets the stand-in rule; their reviewers' grade outranks it
-- and their own grade replaces it. SQLite cannot change a CHECK in place, so the table is
-- rebuilt (ids kept) with its indexes.
CREATE TABLE grades_new (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    question_id INTEGER NOT NULL REFERENCES questions (id),
    round_id INTEGER REFERENCES rounds (id),  -- NULL: private practice
    channel_id INTEGER REFERENCES channels (id),
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),  -- missed, partly, good, nailed
    graded_at TEXT NOT NULL,
    replaced_at TEXT,
    covered TEXT,
    source TEXT NOT NULL DEFAULT 'self' CHECK (source IN ('self', 'reviews', 'coach'))
);
INSERT INTO grades_new (id, member_id, question_id, round_id, channel_id, rating, graded_at,
    replaced_at, covered, source)
SELECT id, member_id, question_id, round_id, channel_id, rating, graded_at,
    replaced_at, covered, source FROM grades;
DROP TABLE grades;
ALTER TABLE grades_new RENAME TO grades;
CREATE UNIQUE INDEX grades_once_per_round
    ON grades (round_id, member_id) WHERE round_id IS NOT NULL AND replaced_at IS NULL;
CREATE INDEX grades_by_member ON grades (member_id, question_id);
CREATE INDEX grades_by_channel ON grades (channel_id, question_id);
CREATE INDEX grades_by_member_time ON grades (member_id, graded_at) WHERE replaced_at IS NULL;
