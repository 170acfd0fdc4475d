"""``quizbot db copy``: move an installation from one database to another (SQLite to
PostgreSQL, or back), row for row with their ids, into an empty target.

The target is written in one transaction, so a failed copy leaves it empty; at the end
the rows of every table are counted on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from storage.database import AnyStore, Database, open_database
from storage.errors import StorageError
from storage.postgres.store import PostgresStore
from storage.sql.session import Session

# Parents before children (the order of the migrations), so foreign keys hold row by row.
TABLES = (
    "channels",
    "questions",
    "rounds",
    "members",
    "answers",
    "votes",
    "reveal_reactors",
    "outbox",
    "processed_events",
    "meta",
    "grades",
    "member_cards",
    "channel_cards",
    "member_goals",
    "suggestions",
    "workspace_questions",
    "question_overrides",
    "flags",
    "bonuses",
    "unfinished_cards",
    "recap_schedules",
    "recaps",
    "practice_sessions",
    "reminders",
    "slack_installations",
    "slack_oauth_states",
    "skipped_days",
    "away_periods",
    "notice_members",
    "answer_reviews",
    "best_answers",
    "pair_members",
    "pair_schedules",
    "pairings",
    "pair_groups",
    "pair_briefs",
    "pair_ratings",
    "erased_answers",
    "coach_opt_outs",
    "coach_assessments",
    "coach_workspace_usage",
    "coach_member_usage",
    "seasons",
    "season_champions",
    "dashboard_shares",
    "fitted_parameters",
    "coach_practice_readings",
    "coach_probe_opt_outs",
)
_CHUNK = 1000
# Columns one dialect has and the other not: the outbox lease exists on PostgreSQL only.
_DIALECT_ONLY = frozenset({"claimed_by", "lease_until"})


class CopyError(StorageError):
    """The copy was refused (a target with data) or did not add up."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What ``quizbot db copy`` copied: the rows per table."""

    counts: dict[str, int]  # rows copied per table, equal on both sides

    @property
    def total(self) -> int:
        return sum(self.counts.values())


async def copy_database(source: Database, target: Database) -> CopyReport:
    if source == target:
        raise CopyError("the source and the target are the same database")
    _check_files(source, target)
    async with open_database(source) as origin, open_database(target) as destination:
        filled = {t: n for t, n in (await _counts(destination)).items() if n}
        if filled:
            listed = ", ".join(f"{table} ({n})" for table, n in filled.items())
            raise CopyError(f"the target {target} is not empty: {listed}; copy into a new database")
        async with destination.database.transaction() as session:
            for table in TABLES:
                rows = await origin.database.fetch(f"SELECT * FROM {table}")
                if not rows:
                    continue
                # keys(): iterating an asyncpg record yields its values
                names = rows[0].keys()
                columns = [c for c in names if c not in _DIALECT_ONLY]
                marks = ", ".join("?" for _ in columns)
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                for start in range(0, len(rows), _CHUNK):
                    chunk = rows[start : start + _CHUNK]
                    values = [tuple(row[c] for c in columns) for row in chunk]
                    await session.execute_many(insert, values)
            if isinstance(destination, PostgresStore):
                await _restart_identities(session, destination)
        copied, found = await _counts(origin), await _counts(destination)
    if copied != found:
        differing = [f"{t}: {copied[t]} -> {found[t]}" for t in TABLES if copied[t] != found[t]]
        raise CopyError("the copy does not add up: " + "; ".join(differing))
    return CopyReport(copied)


def _check_files(source: Database, target: Database) -> None:
    """Refuse SQLite paths that cannot be meant before opening anything: opening a missing
    source would create an empty one (and copy nothing, successfully)."""
    if source.kind == "sqlite" and not Path(source.location).is_file():
        raise CopyError(f"no database at {source.location}")
    if target.kind == "sqlite" and not Path(target.location).parent.is_dir():
        raise CopyError(f"the directory {Path(target.location).parent} does not exist")


async def _counts(store: AnyStore) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in TABLES:
        row = await store.database.fetch_one(f"SELECT COUNT(*) FROM {table}")
        counts[table] = 0 if row is None else int(row[0])
    return counts


async def _restart_identities(session: Session, store: PostgresStore) -> None:
    """Identity columns go on after the copied ids (explicit ids do not advance them)."""
    for table in sorted(set(TABLES) & store.id_tables):
        await session.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
        )
