-- A round closed with `/quiz skip` before its reveal records when: its outline is never
-- posted, not even once later rounds exist (a reveal reaction or button on its old question
-- changes nothing). A round closed by the next round's posting keeps skipped_at NULL and
-- may still be revealed. A skipped round is closed and unrevealed, and stays so.
ALTER TABLE rounds ADD COLUMN skipped_at TEXT
    CHECK (skipped_at IS NULL OR (state = 'closed' AND revealed_at IS NULL));
-- Existing rounds: until now a skip was told apart only while the skipped round was still
-- its channel's latest round (only a skip closes the latest round; the next round's posting
-- closes any other). Exactly those rounds, closed, unrevealed and latest, are marked skipped
-- at their close. An older skipped round cannot be told from one closed by the next round's
-- posting, so it stays unmarked (and revealable, as it was).
UPDATE rounds SET skipped_at = COALESCE(closed_at, created_at)
WHERE state = 'closed' AND revealed_at IS NULL
    AND NOT EXISTS (
        SELECT 1 FROM rounds later
        WHERE later.channel_id = rounds.channel_id AND later.number > rounds.number
    );
