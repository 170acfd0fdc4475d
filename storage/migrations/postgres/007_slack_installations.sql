-- Slack workspaces that installed the app through OAuth (several workspaces, one bot).
-- The bot token is sealed (encrypted by the application with QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY)
-- before it is written: no column holds a usable token. Portable DDL: PostgreSQL runs
-- the same text.
CREATE TABLE slack_installations (
    workspace TEXT PRIMARY KEY,       -- the Slack team id
    enterprise TEXT,
    team_name TEXT NOT NULL,
    app_id TEXT,
    bot_id TEXT,
    bot_user_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    sealed_token TEXT NOT NULL,
    installer TEXT,
    installed_at TEXT NOT NULL
);

-- The state parameter of installs in progress: each is consumed once, before it expires.
CREATE TABLE slack_oauth_states (
    state TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
);
