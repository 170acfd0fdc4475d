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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
from pydantic import ValidationError

from adapters.discord.shards import paced_rate, settings_shard_plan
from adapters.ops.logs import Redactor, secret_values
from adapters.printable import printable
from bot.kernel.errors import QuizError
from bot.settings import Settings, SettingsError, invalid_settings, load_settings
from questions.loader import PackError, bundled_packs_dir, load_packs
from storage.database import Database, DatabaseUrlError, configured_database, parse_database
from storage.errors import MigrationError
from storage.migrations import bundled_migrations
from storage.passwords import url_password
from storage.postgres.migrations import bundled_postgres_migrations, postgres_schema_version

DISCORD_API_URL = "https://discord.com/api/v10"
SLACK_API_URL = "https://slack.com/api/"
NETWORK_TIMEOUT = 10.0
MAX_PROBLEMS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the doctor's report: what was checked, whether it passed, what to fix."""

    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        if self.ok:
            return f"ok    {self.name}: {self.detail}"
        fix = f"\n      fix: {self.fix}" if self.fix else ""
        return f"FAIL  {self.name}: {self.detail}{fix}"


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "doctor",
        help="check configuration, database, packs and platform credentials",
        description="Check the configuration, the database (migrations, integrity), the "
        "question packs and each configured platform's credentials. Prints what to fix; "
        "exits 1 when anything fails.",
    )
    parser.add_argument("--config", type=Path, help="a TOML settings file")
    parser.add_argument(
        "--db",
        type=Path,
        help="check this SQLite database file (default: QUIZBOT_DATABASE_URL, else "
        "QUIZBOT_DB_PATH, else ./quizbot.db)",
    )
    parser.add_argument("--platform", help="console, slack, discord, or e.g. discord,slack")
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
    settings, config_check = check_settings(config, overrides)
    checks = [config_check]
    if settings is not None:
        redact = Redactor([*redact.secrets, *_secrets_of(settings)])
        database_check, database = await _database_check(settings, overrides.get("db_path"))
        checks.append(database_check)
        checks.append(check_packs(settings.packs_dir))
        for name in settings.platforms():
            if name == "slack":
                checks.append(await check_slack(settings))
                if settings.slack_installs and config_check.ok and database is not None:
                    checks.append(await check_slack_tokens(settings, database))
            elif name == "discord":
                checks.append(await check_discord(settings))
    else:
        checks.append(Check("other checks", False, "skipped", "fix the configuration first"))
    return [Check(c.name, c.ok, redact(c.detail), redact(c.fix)) for c in checks]


def _secrets_of(settings: Settings) -> list[str]:
    """The secret settings' values; of the database URL only its password: the doctor names
    the database it checked, as ``Database`` shows it (without the password)."""
    secrets = secret_values(settings)
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


def check_settings(config: Path | None, overrides: dict[str, Any]) -> tuple[Settings | None, Check]:
    try:
        settings = load_settings(config, **overrides)
        platforms = settings.platforms()
    except SettingsError as problem:
        return None, Check("config", False, str(problem), "correct the setting named above")
    except ValidationError as problem:
        lines = invalid_settings(problem)
        return None, Check("config", False, "; ".join(lines), "correct the settings named above")
    if "slack" in platforms and settings.slack_installs:
        try:
            settings.check_slack_installs()
        except SettingsError as problem:
            return settings, Check("config", False, str(problem), "correct the Slack settings")
    missing = [
        f"QUIZBOT_{name.upper()} (for {platform})"
        for platform in platforms
        for name in settings.required_for(platform)
        if _blank(getattr(settings, name))
    ]
    if missing:
        return settings, Check(
            "config", False, "missing " + ", ".join(missing), "set them in .env or the environment"
        )
    if settings.http_port is not None and not 0 < settings.http_port < 65536:
        return settings, Check(
            "config",
            False,
            f"QUIZBOT_HTTP_PORT={settings.http_port} is not a TCP port",
            "use a port between 1 and 65535, or unset it to turn the health server off",
        )
    if "discord" in platforms and settings.discord_api_url:
        from adapters.discord.endpoint import check_api_url

        try:
            check_api_url(settings.discord_api_url)
        except SettingsError as problem:
            return settings, Check("config", False, str(problem), "correct QUIZBOT_DISCORD_API_URL")
    if "slack" in platforms and settings.slack_installs:
        from adapters.slack.installations import check_encryption_key

        try:
            check_encryption_key(settings)
        except SettingsError as problem:
            return settings, Check(
                "config", False, str(problem), "set QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY to it"
            )
    try:
        shards = settings_shard_plan(settings)
    except SettingsError as problem:
        return settings, Check(
            "config",
            False,
            str(problem),
            "correct QUIZBOT_DISCORD_SHARDS and QUIZBOT_DISCORD_SHARD_COUNT",
        )
    running = f"platforms {', '.join(platforms)}"
    if shards is not None:
        rate = paced_rate(settings.discord_requests_per_second, shards)
        running += f"; Discord {shards.describe()} at {rate:g} REST requests/s"
    return settings, Check("config", True, running)


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


# the sealed tokens of installed Slack workspaces


async def check_slack_tokens(settings: Settings, database: Database) -> Check:
    """Every bot token stored by an install opens with the configured encryption key: with
    another key the bot could not act in those workspaces."""
    from adapters.slack.installations import TokenSeal

    assert settings.slack_token_encryption_key is not None
    seal = TokenSeal(settings.slack_token_encryption_key.get_secret_value())
    try:
        stored = await stored_sealed_tokens(database)
    except (DatabaseUnreachable, sqlite3.Error) as problem:
        return Check("slack tokens", False, f"cannot read the installations: {problem}")
    closed = [workspace for workspace, sealed in stored if not _opens(seal, sealed)]
    if closed:
        shown = ", ".join(printable(w) for w in closed[:MAX_PROBLEMS_SHOWN])
        more = len(closed) - MAX_PROBLEMS_SHOWN
        return Check(
            "slack tokens",
            False,
            "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY does not open the stored bot token of "
            f"{len(closed)} of {len(stored)} installed workspace(s): {shown}"
            + (f" and {more} more" if more > 0 else ""),
            "set the key the tokens were sealed with; with a new key, install the app again "
            "in those workspaces",
        )
    opened = f"the key opens the bot tokens of {len(stored)} installed workspace(s)"
    return Check("slack tokens", True, opened)


def _opens(seal: Any, sealed: str) -> bool:
    try:
        seal.open(sealed)
    except SettingsError:
        return False
    return True


async def stored_sealed_tokens(database: Database) -> list[tuple[str, str]]:
    """Each installed workspace with its sealed bot token, read without writing."""
    table = "slack_installations"
    select = f"SELECT workspace, sealed_token FROM {table} ORDER BY workspace"
    if database.kind == "postgres":
        async with _postgres(database) as conn:
            if not await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", table):
                return []
            return [(str(row[0]), str(row[1])) for row in await conn.fetch(select)]
    located = _locate_database(Path(database.location))
    if isinstance(located, Check):
        return []
    async with aiosqlite.connect(located, uri=True) as sqlite:
        known = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        if not list(await sqlite.execute_fetchall(known, (table,))):
            return []
        return [(str(row[0]), str(row[1])) for row in await sqlite.execute_fetchall(select)]


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


# credentials


async def check_slack(settings: Settings) -> Check:
    """``auth.test`` with the bot token; in Socket Mode ``apps.connections.open`` with the
    app token (it only issues a connection URL, it does not connect)."""
    base_url = settings.slack_api_url or SLACK_API_URL
    if settings.slack_installs:
        return await check_slack_app(settings, base_url)
    if settings.slack_bot_token is None:
        return Check("slack", False, "no bot token", "set QUIZBOT_SLACK_BOT_TOKEN")
    try:
        identity = await _slack_call(
            settings.slack_bot_token.get_secret_value(), base_url, "auth.test"
        )
        if settings.slack_mode == "socket" and settings.slack_app_token is not None:
            await _slack_call(
                settings.slack_app_token.get_secret_value(), base_url, "apps.connections.open"
            )
    except SlackCallFailed as failed:
        return Check("slack", False, failed.detail, failed.fix)
    team, user = identity.get("team", "?"), identity.get("user", "?")
    return Check("slack", True, f"signed in as {user} in workspace {team}")


# Slack checks the app's credentials before the code: a code that cannot exist tells
# whether the client id and secret are right without installing anything.
PROBE_CODE = "quizbot-doctor-probe"


async def check_slack_app(settings: Settings, base_url: str) -> Check:
    """Installs in many workspaces: ``oauth.v2.access`` with the client id and secret and
    a code that cannot exist; Slack answers ``invalid_code`` when the credentials are right."""
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    if settings.slack_client_id is None or settings.slack_client_secret is None:
        return Check(
            "slack",
            False,
            "no client id or secret",
            "set QUIZBOT_SLACK_CLIENT_ID and QUIZBOT_SLACK_CLIENT_SECRET",
        )
    client = AsyncWebClient(base_url=base_url, timeout=int(NETWORK_TIMEOUT))
    try:
        await client.oauth_v2_access(
            client_id=settings.slack_client_id,
            client_secret=settings.slack_client_secret.get_secret_value(),
            code=PROBE_CODE,
        )
    except SlackApiError as error:
        code = str(error.response.get("error", "unknown_error"))
        if code != "invalid_code":
            return Check(
                "slack",
                False,
                f"oauth.v2.access answered {code}",
                "copy Client ID and Client Secret from the app's Basic Information › App "
                "Credentials into QUIZBOT_SLACK_CLIENT_ID and QUIZBOT_SLACK_CLIENT_SECRET",
            )
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        return Check(
            "slack",
            False,
            f"cannot reach the Slack API at {base_url}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_SLACK_API_URL (unset it for slack.com)",
        )
    redirect = settings.slack_redirect_uri or "the app's redirect URL"
    return Check(
        "slack",
        True,
        f"app {settings.slack_client_id} accepted by Slack; workspaces install at /slack/install, "
        f"Slack returns them to {redirect}",
    )


class SlackCallFailed(QuizError):
    """A Slack Web API call of the doctor failed; the message says which and why."""

    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


async def _slack_call(token: str, base_url: str, method: str) -> Any:
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    client = AsyncWebClient(token=token, base_url=base_url, timeout=int(NETWORK_TIMEOUT))
    try:
        return await client.api_call(method)
    except SlackApiError as error:
        code = str(error.response.get("error", "unknown_error"))
        raise SlackCallFailed(f"{method} answered {code}", _slack_fix(method, code)) from None
    except (aiohttp.ClientError, TimeoutError, OSError) as error:
        raise SlackCallFailed(
            f"cannot reach the Slack API at {base_url}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_SLACK_API_URL (unset it for slack.com)",
        ) from None


def _slack_fix(method: str, code: str) -> str:
    if method == "apps.connections.open":
        return (
            "create an app-level token with the connections:write scope (Basic Information › "
            "App-Level Tokens) and set it as QUIZBOT_SLACK_APP_TOKEN (xapp-…); "
            "Socket Mode must be on"
        )
    if code in ("invalid_auth", "not_authed", "token_revoked", "account_inactive"):
        return (
            "copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into "
            "QUIZBOT_SLACK_BOT_TOKEN; reinstall the app if it was revoked"
        )
    return "see https://api.slack.com/methods/auth.test for this error"


async def check_discord(settings: Settings) -> Check:
    """``GET /users/@me`` with ``Authorization: Bot <token>``."""
    base = (settings.discord_api_url or DISCORD_API_URL).rstrip("/")
    if settings.discord_token is None:
        return Check("discord", False, "no token", "set QUIZBOT_DISCORD_TOKEN")
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value()}"}
    timeout = aiohttp.ClientTimeout(total=NETWORK_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(f"{base}/users/@me", headers=headers) as response,
        ):
            status = response.status
            body = await response.text()
            identity = await response.json(content_type=None) if status == 200 else {}
    except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as error:
        return Check(
            "discord",
            False,
            f"cannot reach the Discord API at {base}: {type(error).__name__}: {error}",
            "check the network and QUIZBOT_DISCORD_API_URL (unset it for discord.com)",
        )
    if status == 401:
        return Check(
            "discord",
            False,
            "the token was rejected (401 Unauthorized)",
            "reset the token in the Developer Portal › your application › Bot and set it as "
            "QUIZBOT_DISCORD_TOKEN",
        )
    if status != 200:
        return Check(
            "discord",
            False,
            f"GET /users/@me answered {status}: {body[:200]}",
            "check QUIZBOT_DISCORD_API_URL and Discord's status page",
        )
    name = identity.get("username", "?") if isinstance(identity, dict) else "?"
    user_id = identity.get("id", "?") if isinstance(identity, dict) else "?"
    return Check("discord", True, f"signed in as {name} (id {user_id})")


if __name__ == "__main__":
    sys.exit(main())
