-- Mirrors 018_pairing_matched_once.sql.
-- A week's pairing is matched once: matched_at is set by the transaction that stores the
-- pairing's groups, and only while it is still NULL, so a replica whose outbox lease ran
-- out while it stored them and the replica that took the pairing over keep one matching
-- (the second waits for the first's transaction, then finds the week matched). Pairings
-- already matched are marked as matched when their groups were stored.
ALTER TABLE pairings ADD COLUMN matched_at TEXT;
UPDATE pairings SET matched_at = paired_at WHERE id IN (SELECT pairing_id FROM pair_groups);
