"""Recognisable tokens set in the environment never appear in anything `quizbot run` prints."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

SECRETS = {
    "QUIZBOT_SLACK_BOT_TOKEN": "xoxb-SECRET-TEST-bot",
    "QUIZBOT_SLACK_APP_TOKEN": "xapp-SECRET-TEST-app",
    "QUIZBOT_SLACK_SIGNING_SECRET": "signing-SECRET-TEST",
    "QUIZBOT_DISCORD_TOKEN": "discord.SECRET-TEST.token",
}
SCRIPT = "/quiz now\n:as alice\nMy answer\n:react 💡\n/quiz leaderboard\n/quiz stats\n"
REPO = str(Path(__file__).resolve().parents[2])


async def quizbot_run(cwd: Path, script: str, *args: str, **env: str) -> tuple[int, str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "adapters.cli.main",
        "run",
        *args,
        cwd=cwd,
        env={**base, **SECRETS, **env, "PYTHONPATH": REPO},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(script.encode()), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def assert_no_secret(*outputs: str) -> None:
    for output in outputs:
        for secret in SECRETS.values():
            assert secret not in output
        assert "SECRET-TEST" not in output


async def test_a_console_run_with_tokens_configured_prints_none_of_them(tmp_path: Path) -> None:
    code, out, err = await quizbot_run(
        tmp_path, SCRIPT, "--platform", "console", "--db", "q.db", "--log-level", "DEBUG"
    )
    assert code == 0, err
    assert "Question #1" in out  # the round really ran
    assert "DEBUG" in err  # and logging was as verbose as it gets
    assert_no_secret(out, err)


@pytest.fixture
async def rejecting_slack() -> AsyncIterator[str]:
    async def invalid_auth(request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error": "invalid_auth"})

    app = web.Application()
    app.router.add_post("/api/{method}", invalid_auth)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/api/"
    finally:
        await runner.cleanup()


async def test_a_rejected_slack_token_is_reported_without_the_token(
    tmp_path: Path, rejecting_slack: str
) -> None:
    code, out, err = await quizbot_run(
        tmp_path,
        "",
        "--platform",
        "slack",
        "--db",
        "q.db",
        "--log-level",
        "DEBUG",
        QUIZBOT_SLACK_API_URL=rejecting_slack,
    )
    assert code != 0
    assert "invalid_auth" in out + err
    assert_no_secret(out, err)
