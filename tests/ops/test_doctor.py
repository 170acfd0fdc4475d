"""`quizbot doctor`: one line per check, what to fix, exit 1 on any failure, no secret printed."""

from __future__ import annotations

import asyncio
import base64
import os
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp import web
from cryptography.fernet import Fernet

from adapters.slack.installations import TokenSeal
from bot.kernel.installations import InstallationRecord
from bot.learning.parameter_fit import DEFAULTS, FitOutcome
from bot.learning.parameter_store import FitRecord
from storage.database import AnyStore
from storage.migrations import bundled_migrations
from storage.postgres.migrations import bundled_postgres_migrations
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, postgres_schema

GOOD_BOT_TOKEN = "xoxb-SECRET-TEST-good"
GOOD_APP_TOKEN = "xapp-SECRET-TEST-good"
GOOD_DISCORD_TOKEN = "discord-SECRET-TEST-good"
BAD_DISCORD_TOKEN = "discord-SECRET-TEST-bad"
GOOD_CLIENT_SECRET = "client-SECRET-TEST-good"
FERNET_KEY = "yTPtRRNDafZrqrD8Dd5Jwo8hlvR4WZbD6jIf4ZAhqjE="  # a Fernet key made for this test
REPO = str(Path(__file__).resolve().parents[2])
FITTED = datetime(2026, 9, 1, 3, 0, tzinfo=UTC)
LATEST = {
    "sqlite": bundled_migrations()[-1].version,
    "postgres": bundled_postgres_migrations()[-1].version,
}


@dataclass
class FakeApis:
    """Just enough of Slack's auth.test / apps.connections.open and Discord's /users/@me."""

    url: str


async def _slack(request: web.Request) -> web.Response:
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    method = request.match_info["method"]
    if method == "oauth.v2.access":  # the credentials are checked before the code
        expected = base64.b64encode(f"1111.2222:{GOOD_CLIENT_SECRET}".encode()).decode()
        right = request.headers.get("Authorization") == f"Basic {expected}"
        return web.json_response(
            {"ok": False, "error": "invalid_code" if right else "invalid_client_id"}
        )
    good = GOOD_BOT_TOKEN if method == "auth.test" else GOOD_APP_TOKEN
    if token != good:
        return web.json_response({"ok": False, "error": "invalid_auth"})
    if method == "auth.test":
        return web.json_response({"ok": True, "team": "Acme", "user": "quizbot"})
    return web.json_response({"ok": True, "url": "wss://example.invalid/link"})


async def _discord_me(request: web.Request) -> web.Response:
    authorization = request.headers.get("Authorization", "")
    if authorization == f"Bot {GOOD_DISCORD_TOKEN}":
        return web.json_response({"id": "4242", "username": "quizbot"})
    # echo the credential back, the way a misbehaving proxy might
    return web.Response(status=403, text=f"forbidden for {authorization}")


@pytest.fixture
async def apis() -> AsyncIterator[FakeApis]:
    app = web.Application()
    app.router.add_post("/slack/api/{method}", _slack)
    app.router.add_get("/discord/users/@me", _discord_me)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        yield FakeApis(f"http://127.0.0.1:{port}")
    finally:
        await runner.cleanup()


def clean_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")}
    env.update(values)
    return env


async def doctor(cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "adapters.cli.doctor",
        *args,
        cwd=cwd,
        env={**env, "PYTHONPATH": REPO},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


def platform_env(apis: FakeApis, *, discord_token: str) -> dict[str, str]:
    return clean_env(
        QUIZBOT_PLATFORM="slack,discord",
        QUIZBOT_SLACK_BOT_TOKEN=GOOD_BOT_TOKEN,
        QUIZBOT_SLACK_APP_TOKEN=GOOD_APP_TOKEN,
        QUIZBOT_SLACK_API_URL=f"{apis.url}/slack/api/",
        QUIZBOT_DISCORD_TOKEN=discord_token,
        QUIZBOT_DISCORD_API_URL=f"{apis.url}/discord",
    )


def assert_no_secret(output: str) -> None:
    for secret in (GOOD_BOT_TOKEN, GOOD_APP_TOKEN, GOOD_DISCORD_TOKEN, BAD_DISCORD_TOKEN):
        assert secret not in output
    assert "SECRET-TEST" not in output


async def test_a_good_setup_passes_every_check(apis: FakeApis, tmp_path: Path) -> None:
    db = tmp_path / "quiz.db"
    async with SqliteStore.open(db):
        pass
    code, output = await doctor(
        tmp_path, platform_env(apis, discord_token=GOOD_DISCORD_TOKEN), "--db", str(db)
    )
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == "ok    config: platforms slack, discord"
    assert lines[1].startswith(f"ok    database: {db} intact; schema version ")
    assert lines[1].endswith(" is current")
    assert lines[2].startswith("ok    packs: 1 pack(s) (ai-infra), ")
    assert lines[3] == "ok    slack: signed in as quizbot in workspace Acme"
    assert lines[4] == "ok    discord: signed in as quizbot (id 4242)"
    assert lines[5].startswith("ok    memory model: FSRS defaults everywhere")
    assert lines[6] == "everything looks fine"
    assert_no_secret(output)


async def test_a_broken_setup_names_each_problem_and_its_fix(
    apis: FakeApis, tmp_path: Path
) -> None:
    not_sqlite = tmp_path / "quiz.db"
    not_sqlite.write_text("these are notes, not a database\n" * 100)
    bad_packs = tmp_path / "packs"
    bad_packs.mkdir()
    (bad_packs / "broken.yaml").write_text("id: broken\ntitle: Broken\nquestions: []\n")
    env = platform_env(apis, discord_token=BAD_DISCORD_TOKEN)
    env["QUIZBOT_SLACK_BOT_TOKEN"] = "xoxb-SECRET-TEST-revoked"
    code, output = await doctor(
        tmp_path, env, "--db", str(not_sqlite), "--packs-dir", str(bad_packs)
    )
    assert code == 1
    assert f"FAIL  database: {not_sqlite} is not a usable SQLite database" in output
    assert "fix: point QUIZBOT_DB_PATH / --db at the quizbot database" in output
    assert "FAIL  packs: 1 problem(s):" in output
    assert f"{bad_packs / 'broken.yaml'}:3: questions:" in output
    assert "FAIL  slack: auth.test answered invalid_auth" in output
    assert "fix: copy the Bot User OAuth Token (xoxb-…)" in output
    assert "FAIL  discord: GET /users/@me answered 403: forbidden for Bot [redacted]" in output
    assert output.splitlines()[-1] == "4 problem(s) found"
    assert "xoxb-SECRET-TEST-revoked" not in output
    assert_no_secret(output)


async def test_missing_credentials_and_bad_settings_fail_the_config_check(
    tmp_path: Path,
) -> None:
    code, output = await doctor(tmp_path, clean_env(QUIZBOT_PLATFORM="discord,slack"))
    assert code == 1
    assert output.splitlines()[0] == (
        "FAIL  config: missing QUIZBOT_DISCORD_TOKEN (for discord), "
        "QUIZBOT_SLACK_BOT_TOKEN (for slack), QUIZBOT_SLACK_APP_TOKEN (for slack)"
    )
    code, output = await doctor(tmp_path, clean_env(QUIZBOT_TIMEZONE="Mars/Olympus"))
    assert code == 1
    assert output.splitlines()[0].startswith("FAIL  config: QUIZBOT_TIMEZONE: ")
    assert "FAIL  other checks: skipped" in output


async def test_a_token_with_a_line_break_is_called_malformed_not_a_network_problem(
    apis: FakeApis, tmp_path: Path
) -> None:
    env = platform_env(apis, discord_token=f"{GOOD_DISCORD_TOKEN}\nX-Injected: 1")
    code, output = await doctor(tmp_path, env)
    assert code == 1
    first = output.splitlines()[0]
    assert first.startswith("FAIL  config: QUIZBOT_DISCORD_TOKEN: malformed: ")
    assert "cannot reach" not in output and "Traceback" not in output
    assert_no_secret(output)


async def test_a_database_from_a_newer_quizbot_fails(tmp_path: Path) -> None:
    db = tmp_path / "future.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 999")
    conn.close()
    code, output = await doctor(tmp_path, clean_env(), "--db", str(db))
    assert code == 1
    assert "has schema version 999, newer than this quizbot's" in output
    assert "fix: upgrade quizbot, or restore a backup" in output


async def test_discord_shards_are_checked_and_reported_with_the_rest_share(
    apis: FakeApis, tmp_path: Path
) -> None:
    env = platform_env(apis, discord_token=GOOD_DISCORD_TOKEN)
    code, output = await doctor(
        tmp_path, {**env, "QUIZBOT_DISCORD_SHARDS": "0-3", "QUIZBOT_DISCORD_SHARD_COUNT": "8"}
    )
    assert output.splitlines()[0] == (
        "ok    config: platforms slack, discord; Discord shards 0-3 of 8 at 22.5 REST requests/s"
    )
    code, output = await doctor(
        tmp_path, {**env, "QUIZBOT_DISCORD_SHARDS": "6-9", "QUIZBOT_DISCORD_SHARD_COUNT": "8"}
    )
    assert code == 1
    assert output.splitlines()[0] == (
        "FAIL  config: --shards: shard 8-9 is not below --shard-count 8 (the ids run from 0 to 7)"
    )
    assert "fix: correct QUIZBOT_DISCORD_SHARDS and QUIZBOT_DISCORD_SHARD_COUNT" in output


def installs_env(apis: FakeApis, **changes: str) -> dict[str, str]:
    return clean_env(
        **{
            "QUIZBOT_PLATFORM": "slack",
            "QUIZBOT_SLACK_MODE": "http",
            "QUIZBOT_SLACK_CLIENT_ID": "1111.2222",
            "QUIZBOT_SLACK_CLIENT_SECRET": GOOD_CLIENT_SECRET,
            "QUIZBOT_SLACK_SIGNING_SECRET": "signing-SECRET-TEST",
            "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY": FERNET_KEY,
            "QUIZBOT_SLACK_REDIRECT_URI": "https://quiz.example/slack/oauth_redirect",
            "QUIZBOT_SLACK_API_URL": f"{apis.url}/slack/api/",
            **changes,
        }
    )


async def test_installs_in_many_workspaces_are_checked_without_printing_a_secret(
    apis: FakeApis, tmp_path: Path
) -> None:
    code, output = await doctor(tmp_path, installs_env(apis))
    assert code == 0, output
    assert output.splitlines()[3] == (
        "ok    slack: app 1111.2222 accepted by Slack; workspaces install at /slack/install, "
        "Slack returns them to https://quiz.example/slack/oauth_redirect"
    )

    code, output = await doctor(
        tmp_path, installs_env(apis, QUIZBOT_SLACK_CLIENT_SECRET="client-SECRET-TEST-wrong")
    )
    assert code == 1
    assert "FAIL  slack: oauth.v2.access answered invalid_client_id" in output
    assert "QUIZBOT_SLACK_CLIENT_SECRET" in output

    code, output = await doctor(tmp_path, installs_env(apis, QUIZBOT_SLACK_MODE="socket"))
    assert code == 1
    assert output.splitlines()[0].startswith("FAIL  config: QUIZBOT_SLACK_CLIENT_ID is set")
    assert "needs HTTP mode" in output

    code, output = await doctor(
        tmp_path, installs_env(apis, QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY="not-a-SECRET-TEST-key")
    )
    assert code == 1
    assert output.splitlines()[0].startswith(
        "FAIL  config: QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY must be a Fernet key"
    )
    assert "Fernet.generate_key()" in output

    code, output = await doctor(tmp_path, installs_env(apis, QUIZBOT_SLACK_CLIENT_SECRET=""))
    assert code == 1
    assert "FAIL  slack: no client id or secret" in output
    assert output.splitlines()[0] == (
        "FAIL  config: missing QUIZBOT_SLACK_CLIENT_SECRET (for slack)"
    )
    for secret in (GOOD_CLIENT_SECRET, FERNET_KEY, "SECRET-TEST"):
        assert secret not in output


@asynccontextmanager
async def configured_store(backend: str, tmp_path: Path) -> AsyncIterator[tuple[str, AnyStore]]:
    """A migrated store of ``backend`` and the QUIZBOT_DATABASE_URL naming it."""
    if backend == "sqlite":
        path = tmp_path / "elsewhere" / "quiz.db"
        path.parent.mkdir()
        async with SqliteStore.open(path) as store:
            yield f"sqlite:///{path}", store
        return
    async with postgres_schema() as url, PostgresStore.open(url) as pg:
        yield url, pg


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_database_of_the_database_url_is_checked(backend: str, tmp_path: Path) -> None:
    async with configured_store(backend, tmp_path) as (url, _):
        code, output = await doctor(tmp_path, clean_env(QUIZBOT_DATABASE_URL=url))
    assert code == 0, output
    found = f"{url.removeprefix('sqlite:///')} intact" if backend == "sqlite" else f"{url} answers"
    assert output.splitlines()[1] == (
        f"ok    database: {found}; schema version {LATEST[backend]} is current"
    )
    assert not (tmp_path / "quizbot.db").exists()  # not the default file instead


async def test_a_database_that_cannot_be_reached_fails_in_one_line(tmp_path: Path) -> None:
    refused = "postgresql://quizbot:SECRET-TEST-pw@127.0.0.1:1/quiz"
    code, output = await doctor(tmp_path, clean_env(QUIZBOT_DATABASE_URL=refused))
    assert code == 1
    [line] = [line for line in output.splitlines() if line.startswith("FAIL")]
    assert line.startswith(
        "FAIL  database: cannot connect to PostgreSQL at postgresql://quizbot:***@127.0.0.1:1/quiz"
    )
    assert "fix: start the database, or correct QUIZBOT_DATABASE_URL" in output
    assert "Traceback" not in output and "SECRET-TEST" not in output

    code, output = await doctor(tmp_path, clean_env(QUIZBOT_DATABASE_URL="mysql://db/quiz"))
    assert code == 1
    assert "FAIL  database: unsupported database URL scheme 'mysql'" in output


def sealed_installation(workspace: str, key: str) -> InstallationRecord:
    return InstallationRecord(
        workspace=workspace,
        team_name=f"Team {workspace}",
        bot_user_id="U0BOT",
        sealed_token=TokenSeal(key).seal(f"xoxb-SECRET-TEST-{workspace}"),
        installed_at=datetime(2026, 11, 30, 9, 0, tzinfo=UTC),
    )


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_key_that_does_not_open_the_stored_tokens_fails(
    backend: str, apis: FakeApis, tmp_path: Path
) -> None:
    other_key = Fernet.generate_key().decode()
    async with configured_store(backend, tmp_path) as (url, store):
        await store.installations.save_installation(sealed_installation("T0GOOD", FERNET_KEY))
        code, output = await doctor(tmp_path, installs_env(apis, QUIZBOT_DATABASE_URL=url))
        assert code == 0, output
        assert "ok    slack tokens: the key opens the bot tokens of 1 installed workspace(s)" in (
            output
        )

        await store.installations.save_installation(sealed_installation("T0OLD", other_key))
        code, output = await doctor(tmp_path, installs_env(apis, QUIZBOT_DATABASE_URL=url))
    assert code == 1
    assert (
        "FAIL  slack tokens: QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY does not open the stored bot "
        "token of 1 of 2 installed workspace(s): T0OLD"
    ) in output
    assert "fix: set the key the tokens were sealed with" in output
    assert output.splitlines()[-1] == "1 problem(s) found"
    for secret in (FERNET_KEY, other_key, "SECRET-TEST"):
        assert secret not in output


COACH_KEY = "sk-coach-SECRET-TEST-doctor"


@asynccontextmanager
async def coach_endpoint(known_model: str) -> AsyncIterator[str]:
    """An OpenAI-compatible endpoint serving ``known_model`` only; it echoes the key it was
    given in its errors, as a careless proxy might."""

    async def completions(request: web.Request) -> web.Response:
        body = await request.json()
        if body["model"] != known_model:
            key = request.headers.get("Authorization", "")
            return web.json_response(
                {"error": {"message": f"model {body['model']} not found for {key}"}}, status=404
            )
        message = {"role": "assistant", "content": '{"ok": true}'}
        return web.json_response({"choices": [{"index": 0, "message": message}]})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/v1"
    finally:
        await runner.cleanup()


def coach_env(url: str, model: str) -> dict[str, str]:
    return clean_env(
        QUIZBOT_PLATFORM="console",
        QUIZBOT_COACH_URL=url,
        QUIZBOT_COACH_MODEL=model,
        QUIZBOT_COACH_API_KEY=COACH_KEY,
    )


async def test_the_doctor_checks_the_coachs_endpoint_and_model(tmp_path: Path) -> None:
    async with coach_endpoint("smollm2") as url:
        code, output = await doctor(tmp_path, coach_env(url, "smollm2"))
        host = url.split("//")[1].split("/")[0]
        assert f"ok    coach: smollm2 at {host} answered (JSON asked as json_schema)" in output
        assert code == 0, output

        code, output = await doctor(tmp_path, coach_env(url, "gpt-nonesuch"))
        assert code == 1
        assert f"FAIL  coach: gpt-nonesuch at {host} refused:" in output
        assert "404" in output and "check QUIZBOT_COACH_MODEL" in output
        assert COACH_KEY not in output and "SECRET-TEST" not in output

    code, output = await doctor(tmp_path, coach_env(url, "smollm2"))  # the endpoint is gone
    assert code == 1
    assert "FAIL  coach: smollm2 at" in output and "did not answer" in output
    assert COACH_KEY not in output


async def test_the_doctor_names_the_coach_setting_that_is_missing(tmp_path: Path) -> None:
    env = clean_env(QUIZBOT_PLATFORM="console", QUIZBOT_COACH_URL="http://127.0.0.1:9/v1")

    code, output = await doctor(tmp_path, env)

    assert code == 1
    assert "FAIL  coach: the coach needs QUIZBOT_COACH_MODEL too" in output


async def test_a_dashboard_address_without_the_server_fails_the_config_check(
    tmp_path: Path,
) -> None:
    env = clean_env(QUIZBOT_PLATFORM="console", QUIZBOT_DASHBOARD_URL="https://quiz.example.com")
    code, output = await doctor(tmp_path, env)
    assert code == 1
    assert output.splitlines()[0] == (
        "FAIL  config: QUIZBOT_DASHBOARD_URL is set but QUIZBOT_HTTP_PORT is not:"
        " nothing serves the pages its links point at"
    )
    short_secret = {**env, "QUIZBOT_HTTP_PORT": "8080", "QUIZBOT_DASHBOARD_SECRET": "short"}
    code, output = await doctor(tmp_path, short_secret)
    assert code == 1 and "QUIZBOT_DASHBOARD_SECRET" in output and "short" not in output


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_doctor_says_which_memory_parameters_each_workspace_uses(
    backend: str, tmp_path: Path
) -> None:
    async with configured_store(backend, tmp_path) as (url, store):
        fits = store.fitted_parameters
        kept = FitOutcome(480, 120, 0.61, 0.55, DEFAULTS, True)
        rejected = FitOutcome(500, 125, 0.55, 0.57, DEFAULTS, False)
        await fits.record_fit(FitRecord("slack", "T1", FITTED, "weekly", kept))
        later = FITTED.replace(day=8)
        await fits.record_fit(FitRecord("slack", "T1", later, "weekly", rejected))
        await fits.record_fit(FitRecord("slack", "T2", FITTED, "weekly", rejected))
        code, output = await doctor(tmp_path, clean_env(QUIZBOT_DATABASE_URL=url))
    assert code == 0, output
    [line] = [line for line in output.splitlines() if "memory model" in line]
    assert line.startswith(
        "ok    memory model: slack/T1 parameters fitted to the team's reviews, in use since"
        " 2026-09-01"
    )
    assert "(held-out log loss 0.5500 against 0.6100 before; last fit 2026-09-08" in line
    assert ": not kept); slack/T2 FSRS defaults (last fit" in line
