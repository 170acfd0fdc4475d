-- Points follow quality: a member's first answer in a round earns points for the key points
-- someone other than its author judged it to cover (teammates' review ticks; the coach's
-- verified ticks its author accepted), kept up to date whenever those judgements change.
-- points is base_points, plus capped votes, plus quality_points. Answers judged before
-- this version earn quality points from the next change of their reviews.
ALTER TABLE answers ADD COLUMN quality_points INTEGER NOT NULL DEFAULT 0;
-- The key points (a JSON list) that reviewers who have since erased their data ticked in
-- the answer: their reviews go, their judgement stays the answer's, naming no one.
ALTER TABLE answers ADD COLUMN kept_ticks TEXT;
-- The leaderboard shows each member's quality points too, still from the index alone.
DROP INDEX answers_leaderboard;
CREATE INDEX answers_leaderboard
    ON answers (channel_id, member_id, answered_at, points, scoring, quality_points);
