-- Mirrors 013_reveal_after_and_notices.sql.
-- The outline always comes: a channel may reveal it a set time after the question
-- (reveal_after_minutes; NULL: only when a member reveals it or the next question closes
-- the round). Opt-in notices: members who asked get a direct message when the channel's
-- question posts, and a last call that long before the outline is due (last_call_minutes;
-- NULL: none); the question may mention one Discord role or Slack user group (ping; NULL:
-- it mentions nobody, as before).
ALTER TABLE channels ADD COLUMN reveal_after_minutes INTEGER
    CHECK (reveal_after_minutes IS NULL OR reveal_after_minutes > 0);
ALTER TABLE channels ADD COLUMN last_call_minutes INTEGER
    CHECK (last_call_minutes IS NULL OR last_call_minutes > 0);
ALTER TABLE channels ADD COLUMN ping TEXT;

-- Members who turned notices on in a channel, and their DM channel with the bot.
CREATE TABLE notice_members (
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    member_id INTEGER NOT NULL REFERENCES members (id),
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    direct_channel TEXT NOT NULL,
    since TEXT NOT NULL,
    PRIMARY KEY (channel_id, member_id)
);
