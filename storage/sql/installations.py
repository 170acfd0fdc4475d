"""The ``InstallationStore`` port on both backends: Slack workspaces that installed the app
(their sealed bot tokens) and the states of installs in progress.

It runs on the store's database object, like the other aggregates.
"""

from __future__ import annotations

from datetime import datetime

from bot.kernel.installations import InstallationRecord
from storage.sql.session import SqlDatabase
from storage.timestamps import from_db, to_db

COLUMNS = (
    "workspace, enterprise, team_name, app_id, bot_id, bot_user_id, scopes, sealed_token,"
    " installer, installed_at"
)
SAVE = f"""
INSERT INTO slack_installations ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (workspace) DO UPDATE SET
    enterprise = excluded.enterprise, team_name = excluded.team_name,
    app_id = excluded.app_id, bot_id = excluded.bot_id, bot_user_id = excluded.bot_user_id,
    scopes = excluded.scopes, sealed_token = excluded.sealed_token,
    installer = excluded.installer, installed_at = excluded.installed_at
"""

PRUNE_EXPIRED_STATES = "DELETE FROM slack_oauth_states WHERE expires_at <= ?"
# All but the new state (the first two parameters) and the newest others (the third).
KEEP_NEWEST_STATES = """
DELETE FROM slack_oauth_states WHERE state <> ? AND state NOT IN (
    SELECT state FROM slack_oauth_states WHERE state <> ?
    ORDER BY expires_at DESC, state DESC LIMIT ?
)
"""


class Installations:
    """``InstallationStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def save_installation(self, record: InstallationRecord) -> None:
        async with self._db.transaction() as session:
            await session.execute(
                SAVE,
                (
                    record.workspace,
                    record.enterprise,
                    record.team_name,
                    record.app_id,
                    record.bot_id,
                    record.bot_user_id,
                    record.scopes,
                    record.sealed_token,
                    record.installer,
                    to_db(record.installed_at),
                ),
            )

    async def find_installation(self, workspace: str) -> InstallationRecord | None:
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM slack_installations WHERE workspace = ?", (workspace,)
        )
        if not rows:
            return None
        row = rows[0]
        return InstallationRecord(
            workspace=row[0],
            enterprise=row[1],
            team_name=row[2],
            app_id=row[3],
            bot_id=row[4],
            bot_user_id=row[5],
            scopes=row[6],
            sealed_token=row[7],
            installer=row[8],
            installed_at=from_db(row[9]),
        )

    async def delete_installation(
        self, workspace: str, *, installed_before: datetime | None = None
    ) -> bool:
        sql = "DELETE FROM slack_installations WHERE workspace = ?"
        params: tuple[str, ...] = (workspace,)
        if installed_before is not None:
            # One statement: a reinstall saved meanwhile (by any replica) is never removed.
            sql += " AND installed_at < ?"
            params += (to_db(installed_before),)
        async with self._db.transaction() as session:
            changed = await session.execute(sql, params)
            return bool(changed)

    async def issue_oauth_state(
        self, state: str, expires_at: datetime, *, now: datetime, keep: int
    ) -> None:
        async with self._db.transaction() as session:
            await session.execute(PRUNE_EXPIRED_STATES, (to_db(now),))
            await session.execute(
                "INSERT INTO slack_oauth_states (state, expires_at) VALUES (?, ?)",
                (state, to_db(expires_at)),
            )
            await session.execute(KEEP_NEWEST_STATES, (state, state, max(keep - 1, 0)))

    async def consume_oauth_state(self, state: str, now: datetime) -> bool:
        async with self._db.transaction() as session:
            await session.execute(PRUNE_EXPIRED_STATES, (to_db(now),))
            changed = await session.execute(
                "DELETE FROM slack_oauth_states WHERE state = ?", (state,)
            )
            return bool(changed)
