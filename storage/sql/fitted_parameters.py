"""The ``FittedParameterStore`` port on both backends: fits and the pooled review log."""

from __future__ import annotations

import json

from bot.learning.parameter_fit import FitOutcome, Review
from bot.learning.parameter_store import FitRecord
from storage.sql.session import Row, SqlDatabase
from storage.timestamps import from_db, to_db

_COLUMNS = (
    "platform, workspace, fitted_at, reason, reviews, held_out, loss_before, loss_fitted,"
    " kept, parameters, error"
)


class FittedParameters:
    """``FittedParameterStore`` on a store's database (either backend)."""

    def __init__(self, db: SqlDatabase) -> None:
        self._db = db

    async def workspaces_with_grades(self) -> list[tuple[str, str]]:
        rows = await self._db.fetch(
            "SELECT DISTINCT m.platform, m.workspace FROM members m"
            " WHERE EXISTS (SELECT 1 FROM grades g"
            " WHERE g.member_id = m.id AND g.replaced_at IS NULL)"
            " ORDER BY 1, 2"
        )
        return [(str(row[0]), str(row[1])) for row in rows]

    async def pooled_reviews(self, platform: str, workspace: str) -> list[Review]:
        rows = await self._db.fetch(
            "SELECT g.member_id, g.question_id, g.rating, g.graded_at FROM grades g"
            " JOIN members m ON m.id = g.member_id"
            " WHERE m.platform = ? AND m.workspace = ? AND g.replaced_at IS NULL"
            " ORDER BY g.graded_at, g.id",
            (platform, workspace),
        )
        return [Review((int(r[0]), int(r[1])), int(r[2]), from_db(r[3])) for r in rows]

    async def record_fit(self, record: FitRecord) -> None:
        outcome = record.outcome
        parameters = None if outcome.parameters is None else json.dumps(list(outcome.parameters))
        async with self._db.transaction() as session:
            await session.execute(
                f"INSERT INTO fitted_parameters ({_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.platform,
                    record.workspace,
                    to_db(record.fitted_at),
                    record.reason,
                    outcome.reviews,
                    outcome.held_out,
                    outcome.loss_before,
                    outcome.loss_fitted,
                    1 if outcome.kept else 0,
                    parameters,
                    outcome.error,
                ),
            )

    async def in_use(self, platform: str, workspace: str) -> FitRecord | None:
        rows = await self._db.fetch(
            f"SELECT {_COLUMNS} FROM fitted_parameters"
            " WHERE platform = ? AND workspace = ? AND kept = 1"
            " ORDER BY fitted_at DESC, id DESC LIMIT 1",
            (platform, workspace),
        )
        return _record(rows[0]) if rows else None

    async def fits(self, platform: str, workspace: str, limit: int = 5) -> list[FitRecord]:
        rows = await self._db.fetch(
            f"SELECT {_COLUMNS} FROM fitted_parameters WHERE platform = ? AND workspace = ?"
            " ORDER BY fitted_at DESC, id DESC LIMIT ?",
            (platform, workspace, limit),
        )
        return [_record(row) for row in rows]


def _record(row: Row) -> FitRecord:
    parameters = None if row[9] is None else tuple(float(w) for w in json.loads(row[9]))
    outcome = FitOutcome(
        reviews=int(row[4]),
        held_out=int(row[5]),
        loss_before=None if row[6] is None else float(row[6]),
        loss_fitted=None if row[7] is None else float(row[7]),
        parameters=parameters,
        kept=bool(row[8]),
        error=row[10],
    )
    return FitRecord(str(row[0]), str(row[1]), from_db(row[2]), str(row[3]), outcome)
