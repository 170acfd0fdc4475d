-- Weekly recaps: each channel's recap schedule, and the recaps queued for the outbox.

-- No row: the recap goes out at the default day and time.
CREATE TABLE recap_schedules (
    channel_id INTEGER PRIMARY KEY REFERENCES channels (id),
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    schedule TEXT                     -- "fri 16:00"; NULL: the default
);

-- One recap per channel and ISO week. Its outbox action (kind 'recap', key outbox_key)
-- hangs on the last round the recap reports; the recap is rendered from stored data
-- when it is sent, so no image is stored.
CREATE TABLE recaps (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    week TEXT NOT NULL,               -- ISO week of the slot in the channel's timezone
    slot TEXT NOT NULL,               -- the recap reports the seven days before it
    outbox_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    UNIQUE (channel_id, week)
);
