"""Numbered SQL migrations (``migrations/NNN_name.sql``, ``migrations/postgres/``): how both
backends load them. Each backend applies them its own way (``storage.sqlite.migrations``,
``storage.postgres.migrations``); ``split_statements`` uses SQLite's own statement parser,
which reads PostgreSQL's scripts just as well."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from storage.errors import MigrationError, SchemaTooNewError

_FILE_NAME = re.compile(r"^(?P<version>\d{3})_(?P<name>[a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file of the schema."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """Which schema version the database had and which migrations were applied."""

    from_version: int
    to_version: int

    @property
    def applied(self) -> int:
        return self.to_version - self.from_version


def split_statements(script: str, *, source: str = "<sql>") -> tuple[str, ...]:
    """The statements of ``script``; semicolons inside strings, comments and triggers stay put."""
    statements: list[str] = []
    *terminated, tail = script.split(";")
    pending = ""
    for piece in terminated:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending + tail):
        raise MigrationError(f"{source}: the last statement does not end with ';'")
    return tuple(statements)


def _has_code(sql: str) -> bool:
    lines = (line.strip() for line in sql.splitlines())
    return any(line and not line.startswith("--") and line != ";" for line in lines)


def load_migrations(directory: Traversable) -> list[Migration]:
    """Every ``NNN_name.sql`` of ``directory``, checked to be numbered 1, 2, 3 ... without gaps."""
    found: dict[int, Migration] = {}
    for entry in directory.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(
                f"migration file {entry.name!r} is not named NNN_name.sql"
                " (e.g. 002_add_streaks.sql)"
            )
        version = int(match["version"])
        if version in found:
            raise MigrationError(f"two migration files have number {version:03d}")
        statements = split_statements(entry.read_text(encoding="utf-8"), source=entry.name)
        found[version] = Migration(version, match["name"], statements)
    versions = sorted(found)
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migrations must be numbered 001, 002, ... without gaps: {versions}")
    return [found[v] for v in versions]


def bundled_migrations() -> list[Migration]:
    return load_migrations(resources.files("storage") / "migrations")


def refuse_future_schema(version: int, latest: int) -> None:
    if version > latest:
        raise SchemaTooNewError(
            f"the database has schema version {version}, but this quizbot only knows "
            f"versions up to {latest}; upgrade quizbot (or restore an older backup)"
        )
