"""`quizbot run` with installs in many Slack workspaces: a token encryption key that is no
Fernet key stops it before anything starts, saying how to make one, never echoing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli.main import main


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for name in list(__import__("os").environ):
        if name.startswith("QUIZBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("QUIZBOT_PLATFORM", "slack")
    monkeypatch.setenv("QUIZBOT_SLACK_MODE", "http")
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_ID", "1111.2222")
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_SECRET", "client-secret-value")
    monkeypatch.setenv("QUIZBOT_SLACK_SIGNING_SECRET", "signing-secret-value")


def test_a_key_that_is_no_fernet_key_stops_run_with_how_to_make_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY", "my-secret-passphrase")
    assert main(["run"]) == 2
    error = capsys.readouterr().err
    assert "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY must be a Fernet key" in error
    assert "Fernet.generate_key()" in error
    assert "my-secret-passphrase" not in error


def test_a_missing_key_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run"]) == 2
    assert "set QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY" in capsys.readouterr().err
