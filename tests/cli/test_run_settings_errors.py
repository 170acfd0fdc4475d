"""`quizbot run` with settings it cannot use: one line per problem, naming the setting or the
file, never a traceback or a validation library's own report."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from adapters.cli.main import main


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for name in ("PLATFORM", "TIMEZONE", "GRACE_HOURS", "DB_PATH"):
        monkeypatch.delenv(f"QUIZBOT_{name}", raising=False)


def test_a_bad_value_names_its_setting_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('timezone = "Mars/Olympus"\ngrace_hours = "soon"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "quizbot: QUIZBOT_TIMEZONE: unknown timezone 'Mars/Olympus'" in err
    assert "quizbot: QUIZBOT_GRACE_HOURS: " in err
    assert "errors.pydantic.dev" not in err


def test_a_config_file_that_is_not_toml_is_named_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text("x = [\n")
    assert main(["run", "--config", str(config)]) == 2
    assert f"quizbot: {config} is not valid TOML" in capsys.readouterr().err


@pytest.fixture
def _root_logger_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    # keep the root logger as the other tests expect it (caplog)
    monkeypatch.setattr("adapters.cli.run.configure_logging", lambda *args, **kwargs: None)


@pytest.mark.usefixtures("_root_logger_untouched")
def test_a_database_of_a_newer_quizbot_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "q.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert main(["run", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"quizbot: database {db}: ") and "schema version 99" in err


@pytest.mark.usefixtures("_root_logger_untouched")
def test_a_file_that_is_no_database_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("shopping list\n" * 100)
    assert main(["run", "--db", str(db)]) == 1
    assert f"quizbot: database {db}: file is not a database" in capsys.readouterr().err


@pytest.mark.usefixtures("_root_logger_untouched")
def test_a_database_in_a_missing_directory_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "absent" / "q.db"
    assert main(["run", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err == f"quizbot: database {db}: the directory {db.parent} does not exist\n"


def test_an_unknown_platform_given_as_a_flag_names_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", "--platform", "teams"]) == 2
    err = capsys.readouterr().err
    assert "unknown platform 'teams'" in err and "--platform" in err


def test_an_unknown_key_in_the_config_file_is_refused_with_a_close_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('shedule = "daily 10:00"\nTimezone = "Europe/Berlin"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err == (f"quizbot: {config}: unknown key 'shedule' (did you mean 'default_schedule'?)\n")


def test_an_unknown_key_in_a_table_is_named_with_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('[slack]\nmode = "http"\n\n[extras]\ncolour = "blue"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("quizbot: ") == 1 and "Traceback" not in err
    assert f"{config}: unknown key 'slack.mode' (did you mean 'slack_mode'?)" in err
    assert "unknown key 'extras.colour'" in err


def test_a_default_schedule_or_log_level_it_cannot_use_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('default_schedule = "sometimes"\nlog_level = "LOUD"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "quizbot: QUIZBOT_DEFAULT_SCHEDULE: " in err and "unknown schedule 'sometimes'" in err
    assert "quizbot: QUIZBOT_LOG_LEVEL: " in err and "DEBUG, INFO, WARNING, ERROR" in err


@pytest.mark.parametrize(
    ("variable", "token"),
    [
        ("QUIZBOT_DISCORD_TOKEN", "MTIz.SECRET-TEST\nX-Injected: 1"),
        ("QUIZBOT_DISCORD_TOKEN", "MTIz.SECRET-TEST\n"),  # a file's last line break
        ("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-SECRET-TEST\r\n"),
        ("QUIZBOT_SLACK_APP_TOKEN", "xapp-SECRET TEST"),
    ],
    ids=["discord-inside", "discord-at-the-end", "slack-bot", "slack-app-space"],
)
@pytest.mark.usefixtures("_root_logger_untouched")
def test_a_token_with_a_line_break_is_refused_by_name_at_start(
    variable: str, token: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "DISCORD_API_URL"):
        monkeypatch.delenv(f"QUIZBOT_{name}", raising=False)
    # were it sent, nothing answers here: the refusal must come before any request
    monkeypatch.setenv("QUIZBOT_DISCORD_API_URL", "http://127.0.0.1:9/api/v10")
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("QUIZBOT_SLACK_APP_TOKEN", "xapp-1")
    monkeypatch.setenv(variable, token)
    platform = "discord" if "DISCORD" in variable else "slack"
    assert main(["run", "--platform", platform]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"quizbot: {variable}: ")
    assert "malformed" in err and "one line" in err
    assert "SECRET" not in err and "Traceback" not in err
