"""``quizbot doctor``: check configuration, database, packs and platform credentials.

Prints one line per check, ``ok`` or ``FAIL`` with what to fix, and exits 1
when anything failed. Never writes to the database and never prints a secret.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import ValidationError

from adapters.checks import MAX_PROBLEMS_SHOWN, NETWORK_TIMEOUT, Check
from adapters.cli.coach_check import check_coach
from adapters.cli.doctor_memory import check_memory_parameters
from adapters.ops.logs import Redactor, secret_values
from adapters.platforms import PlatformChoice, choose_platforms, platform_names, setting_names
from adapters.plugin import DoctorContext, SettingsProblem
from bot.kernel.errors import QuizError
from bot.settings import Settings, SettingsError, invalid_settings, load_settings
from questions.loader import PackError, bundled_packs_dir, load_packs
from storage.database import Database, DatabaseUrlError, configured_database, parse_database
from storage.errors import MigrationError
from storage.migrations import bundled_migrations
from storage.passwords import url_password
from storage.postgres.migrations import bundled_postgres_migrations, postgres_schema_version


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "doctor",
        help="check configuration, database, packs and platform credentials",
        description="Check the configuration, the database (migrations, integrity), the "
        "question packs, the answer coach's endpoint and model (one small request, when "
        "one is configured) and each configured platform's credentials. Prints what to "
        "fix; exits 1 when anything fails.",
    )
    parser.add_argument("--config", type=Path, help="a TOML settings file")
    parser.add_argument(
        "--db",
        type=Path,
        help="check this SQLite database file (default: QUIZBOT_DATABASE_URL, else "
        "QUIZBOT_DB_PATH, else ./quizbot.db)",
    )
    parser.add_argument("--platform", help=f"{platform_names()}, or e.g. discord,slack")
    parser.add_argument("--packs-dir", type=Path, action="append", help="extra pack directory")
    parser.set_defaults(handler=_doctor)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m adapters.cli.doctor``: the same as ``quizbot doctor``."""
    parser = argparse.ArgumentParser(prog="quizbot")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["doctor", *(sys.argv[1:] if argv is None else argv)])
    result: int = args.handler(args)
    return result


def _doctor(args: argparse.Namespace) -> int:
    checks = asyncio.run(
        run_checks(args.config, platform=args.platform, db_path=args.db, packs_dir=args.packs_dir)
    )
    return report(checks, print)


def report(checks: Sequence[Check], write: Callable[[str], object]) -> int:
    """Write one line per check; the exit code: 1 when any failed."""
    for check in checks:
        write(check.line())
    failed = sum(not c.ok for c in checks)
    write(f"{failed} problem(s) found" if failed else "everything looks fine")
    return 1 if failed else 0


async def run_checks(config: Path | None = None, **overrides: Any) -> list[Check]:
    """Every check, in order; later checks are skipped when the settings do not load."""
    redact = Redactor(_secrets_in_environment())
    loaded, config_check = check_settings(config, overrides)
    checks = [config_check]
    if loaded is not None:
        settings, platforms = loaded
        redact = Redactor([*redact.secrets, *_secrets_of(settings, platforms)])
        database_check, database = await _database_check(settings, overrides.get("db_path"))
        checks.append(database_check)
        checks.append(check_packs(settings.packs_dir))
        coach = await check_coach(settings)
        if coach is not None:
            checks.append(coach)
        context = DoctorContext(config_check.ok, database, read_table)
        for setup in platforms.running:
            if setup.plugin.doctor is not None:
                checks += await setup.plugin.doctor(setup.settings, context)
        if database is not None:
            checks.append(await check_memory_parameters(database, read_table))
    else:
        checks.append(Check("other checks", False, "skipped", "fix the configuration first"))
    return [Check(c.name, c.ok, redact(c.detail), redact(c.fix)) for c in checks]


def _secrets_of(settings: Settings, platforms: PlatformChoice) -> list[str]:
    """The secret settings' values; of the database URL only its password: the doctor names
    the database it checked, as ``Database`` shows it (without the password)."""
    secrets = secret_values(settings, *(setup.settings for setup in platforms.every))
    if settings.database_url is not None:
        url = settings.database_url.get_secret_value()
        secrets = [value for value in secrets if value != url]
        password = url_password(url)
        if password is not None:
            secrets.append(password)
    return secrets


def _secrets_in_environment() -> list[str]:
    return [
        value
        for name, value in os.environ.items()
        if name.startswith("QUIZBOT_") and ("TOKEN" in name or "SECRET" in name)
    ]


# configuration


Loaded = tuple[Settings, PlatformChoice]


def check_settings(config: Path | None, overrides: dict[str, Any]) -> tuple[Loaded | None, Check]:
    """The settings and the platforms they choose, and the config check: each running
    platform's credentials are set, and every platform's settings can work."""
    try:
        settings = load_settings(config, also_known=setting_names(), **overrides)
        platforms = choose_platforms(settings, config)
    except SettingsError as problem:
        return None, Check("config", False, str(problem), "correct the setting named above")
    except ValidationError as problem:
        lines = invalid_settings(problem)
        return None, Check("config", False, "; ".join(lines), "correct the settings named above")
    loaded = (settings, platforms)
    try:
        required = [(setup, setup.plugin.required(setup.settings)) for setup in platforms.running]
    except SettingsProblem as problem:
        return loaded, Check("config", False, str(problem), problem.fix)
    missing = [
        f"QUIZBOT_{name.upper()} (for {setup.name})"
        for setup, names in required
        for name in names
        if _blank(getattr(setup.settings, name))
    ]
    if missing:
        return loaded, Check(
            "config", False, "missing " + ", ".join(missing), "set them in .env or the environment"
        )
    if settings.http_port is not None and not 0 < settings.http_port < 65536:
        return loaded, Check(
            "config",
            False,
            f"QUIZBOT_HTTP_PORT={settings.http_port} is not a TCP port",
            "use a port between 1 and 65535, or unset it to turn the health server off",
        )
    if settings.dashboard_url and settings.http_port is None:
        return loaded, Check(
            "config",
            False,
            "QUIZBOT_DASHBOARD_URL is set but QUIZBOT_HTTP_PORT is not:"
            " nothing serves the pages its links point at",
            "set QUIZBOT_HTTP_PORT (the pages are served beside /healthz), or unset the URL",
        )
    try:
        said = platforms.check()
    except SettingsProblem as problem:
        return loaded, Check("config", False, str(problem), problem.fix)
    except SettingsError as problem:
        return loaded, Check("config", False, str(problem), "correct the setting named above")
    return loaded, Check(
        "config", True, "; ".join([f"platforms {', '.join(platforms.names)}", *said])
    )


def _blank(value: object) -> bool:
    if value is None:
        return True
    secret = getattr(value, "get_secret_value", None)
    text = secret() if callable(secret) else value
    return isinstance(text, str) and not text.strip()


# database


async def _database_check(
    settings: Settings, db_path: Path | None
) -> tuple[Check, Database | None]:
    """The database's check, and the database when it can be read."""
    try:
        database = configured_database_of(settings, db_path)
    except DatabaseUrlError as problem:
        return Check("database", False, str(problem), "correct QUIZBOT_DATABASE_URL"), None
    check = await check_database(database)
    return check, database if check.ok else None


def configured_database_of(settings: Settings, db_path: Path | None) -> Database:
    """``--db`` when given, else the database ``quizbot run`` opens: ``QUIZBOT_DATABASE_URL``,
    else the SQLite file of ``QUIZBOT_DB_PATH``."""
    if db_path is not None:
        return parse_database(None, db_path)
    return configured_database(settings)


async def check_database(database: Database) -> Check:
    """Reachable, and at a schema version this quizbot knows (an SQLite file also intact)."""
    if database.kind == "postgres":
        return await check_postgres(database)
    return await check_sqlite(Path(database.location))


async def check_sqlite(path: Path) -> Check:
    """Readable as SQLite, intact, and at a schema version this quizbot knows."""
    located = _locate_database(path)
    if isinstance(located, Check):
        return located
    try:
        newest = bundled_migrations()[-1].version
    except (MigrationError, IndexError) as problem:
        return Check("database", False, f"bundled migrations are broken: {problem}", "reinstall")
    try:
        async with aiosqlite.connect(located, uri=True) as conn:
            version = int((await _one(conn, "PRAGMA user_version"))[0])
            integrity = [
                str(row[0]) for row in await conn.execute_fetchall("PRAGMA integrity_check")
            ]
    except sqlite3.DatabaseError as problem:
        return Check(
            "database",
            False,
            f"{path} is not a usable SQLite database ({problem})",
            "point QUIZBOT_DB_PATH / --db at the quizbot database, or restore a backup",
        )
    if integrity != ["ok"]:
        shown = "; ".join(integrity[:MAX_PROBLEMS_SHOWN])
        return Check(
            "database",
            False,
            f"{path} failed the integrity check: {shown}",
            "stop the bot and restore the latest backup (see the README, Operations)",
        )
    return _schema_check(f"{path} intact", version, newest)


async def check_postgres(database: Database) -> Check:
    """The server answers the URL, and its schema version is one this quizbot knows."""
    try:
        newest = bundled_postgres_migrations()[-1].version
    except (MigrationError, IndexError) as problem:
        return Check("database", False, f"bundled migrations are broken: {problem}", "reinstall")
    try:
        async with _postgres(database) as conn:
            version = await postgres_schema_version(conn)
    except DatabaseUnreachable as problem:
        return Check("database", False, str(problem), problem.fix)
    if version == 0:
        tables = "no quizbot tables yet (`quizbot run` makes them)"
        return Check("database", True, f"{database} answers; {tables}")
    return _schema_check(f"{database} answers", version, newest)


def _schema_check(found: str, version: int, newest: int) -> Check:
    if version > newest:
        return Check(
            "database",
            False,
            f"{found} but has schema version {version}, newer than this quizbot's {newest}",
            "upgrade quizbot, or restore a backup taken before the newer version ran",
        )
    if version < newest:
        return Check(
            "database",
            True,
            f"{found}; schema {version}, {newest - version} migration(s) pending"
            " (`quizbot run` applies them at start; back up first)",
        )
    return Check("database", True, f"{found}; schema version {version} is current")


class DatabaseUnreachable(QuizError):
    """The configured database cannot be opened; the message says why, ``fix`` what to do."""

    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.fix = fix


@asynccontextmanager
async def _postgres(database: Database) -> AsyncIterator[Any]:
    """A read-only connection to the PostgreSQL database, within the network timeout."""
    try:
        import asyncpg
    except ImportError:
        raise DatabaseUnreachable(
            "a postgresql:// URL needs asyncpg", "pip install 'quizbot[postgres]'"
        ) from None
    try:
        conn = await asyncpg.connect(
            database.location,
            timeout=NETWORK_TIMEOUT,
            server_settings={"default_transaction_read_only": "on"},
        )
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise DatabaseUnreachable(
            f"cannot connect to PostgreSQL at {database}: {_one_line(e)}",
            "start the database, or correct QUIZBOT_DATABASE_URL (host, port, user, database)",
        ) from None
    try:
        yield conn
    finally:
        await conn.close()


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or "no answer"
    return f"{type(error).__name__}: {text}"


def _locate_database(path: Path) -> str | Check:
    """A read-only URI of the existing file, or the verdict when there is no file yet."""
    if path.exists():
        return path.resolve().as_uri() + "?mode=ro"
    directory = path.parent
    if not directory.is_dir():
        return Check(
            "database",
            False,
            f"directory {directory} does not exist",
            "create it, or point QUIZBOT_DB_PATH / --db elsewhere",
        )
    if not os.access(directory, os.W_OK):
        return Check(
            "database",
            False,
            f"{path} does not exist and {directory} is not writable",
            "let the bot's user write that directory, or point QUIZBOT_DB_PATH elsewhere",
        )
    return Check("database", True, f"{path} does not exist yet; `quizbot run` creates it")


async def _one(conn: aiosqlite.Connection, sql: str) -> sqlite3.Row:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0]


# a platform's own tables


async def read_table(database: Database, table: str, select: str) -> list[tuple[Any, ...]]:
    """The rows ``select`` reads of ``table``, without writing; none when there is no such
    table yet. Raises QuizError saying why the database cannot be read."""
    try:
        if database.kind == "postgres":
            async with _postgres(database) as conn:
                if not await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", table):
                    return []
                return [tuple(row) for row in await conn.fetch(select)]
        located = _locate_database(Path(database.location))
        if isinstance(located, Check):
            return []
        async with aiosqlite.connect(located, uri=True) as sqlite:
            known = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
            if not list(await sqlite.execute_fetchall(known, (table,))):
                return []
            return [tuple(row) for row in await sqlite.execute_fetchall(select)]
    except sqlite3.Error as problem:
        raise QuizError(str(problem)) from None


# packs


def check_packs(extra_dirs: Sequence[Path]) -> Check:
    dirs = [bundled_packs_dir(), *extra_dirs]
    try:
        packs = load_packs(dirs)
    except PackError as error:
        shown = [str(p) for p in error.problems[:MAX_PROBLEMS_SHOWN]]
        more = len(error.problems) - len(shown)
        if more > 0:
            shown.append(f"... and {more} more")
        return Check(
            "packs",
            False,
            "\n      ".join([f"{len(error.problems)} problem(s):", *shown]),
            "correct the files above (`quizbot packs validate PATH` rechecks them), or remove "
            "the directory from QUIZBOT_PACKS_DIR / --packs-dir",
        )
    questions = sum(len(pack.questions) for pack in packs)
    names = ", ".join(pack.id for pack in packs)
    return Check("packs", True, f"{len(packs)} pack(s) ({names}), {questions} question(s)")


if __name__ == "__main__":
    sys.exit(main())
