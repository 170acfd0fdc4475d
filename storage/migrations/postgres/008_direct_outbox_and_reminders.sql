-- Mirrors 008_direct_outbox_and_reminders.sql: outbox actions that belong to no round
-- (a card for one member's direct messages) and daily review reminders.
ALTER TABLE outbox ALTER COLUMN round_id DROP NOT NULL;
ALTER TABLE outbox ADD COLUMN target_platform TEXT;
ALTER TABLE outbox ADD COLUMN target_workspace TEXT;
ALTER TABLE outbox ADD COLUMN target_channel TEXT;
ALTER TABLE outbox ADD COLUMN card TEXT;
ALTER TABLE outbox ADD CONSTRAINT outbox_round_or_target
    CHECK ((round_id IS NULL) = (target_channel IS NOT NULL));

CREATE TABLE reminders (
    member_id INTEGER PRIMARY KEY REFERENCES members (id),
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    direct_channel TEXT NOT NULL,     -- the member's DM channel with the bot
    local_time TEXT NOT NULL,         -- HH:MM, 24-hour
    timezone TEXT NOT NULL,           -- an IANA name
    updated_at TEXT NOT NULL
);
