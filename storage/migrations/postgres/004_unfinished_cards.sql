-- Cards sent as several messages (a long card split at the platform's limits) whose
-- parts are not all posted yet. Kept here, not in memory, so that after a crash between
-- two parts the retry resumes with the first missing part instead of posting the sent
-- ones again or taking the first part for the whole card.
CREATE TABLE unfinished_cards (
    key TEXT PRIMARY KEY,  -- the outbox key of the send
    message_ids TEXT NOT NULL DEFAULT '[]'  -- JSON list: the parts posted so far, in order
);
