-- Difficulty: a channel may ask only questions of one difficulty, and a practice session
-- keeps the difficulty it was started with for its next questions. NULL: any difficulty
-- (questions without one included), as every channel and session had until now.
ALTER TABLE channels ADD COLUMN difficulty TEXT
    CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard'));
ALTER TABLE practice_sessions ADD COLUMN difficulty TEXT
    CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard'));
