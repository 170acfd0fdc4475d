-- Mirrors 023_dashboard_share.sql.
-- Members who let their channel's lead see their own rows on the lead's page (expected
-- recall per topic, grades): `/quiz dashboard share on`. Without a row, the lead's page shows
-- the member only inside aggregates of at least three members.
CREATE TABLE dashboard_shares (
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    shared_at TEXT NOT NULL,
    PRIMARY KEY (channel_id, member_id)
);
