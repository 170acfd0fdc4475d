-- Blind answers: a channel answers either in the question's thread (today's behaviour) or
-- blind, privately through a form or `/quiz answer`, every answer posted in the thread at
-- the reveal. A blind answer is a row of `answers` like any other (same scoring); until it
-- is posted its message_id is a placeholder (`blind:<member id>`), replaced by the posted
-- message's id so that votes on the posted message count for its author.
ALTER TABLE channels ADD COLUMN answer_mode TEXT NOT NULL DEFAULT 'thread'
    CHECK (answer_mode IN ('thread', 'blind'));
