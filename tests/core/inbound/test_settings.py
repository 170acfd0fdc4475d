"""Settings: environment, .env, TOML, and errors that name the variable to set."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(__import__("os").environ):
        if name.startswith("QUIZBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults_run_the_console() -> None:
    settings = load_settings()
    assert settings.platform == "auto"
    assert settings.db_path == Path("quizbot.db")
    assert settings.timezone == "UTC"


def test_environment_dotenv_and_toml_in_that_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text(
        'timezone = "Asia/Tokyo"\ngrace_hours = 2\ndefault_schedule = "daily 08:00"\n'
    )
    (tmp_path / ".env").write_text("QUIZBOT_GRACE_HOURS=3\nQUIZBOT_SLACK_ADMINS=U1, U2\n")
    monkeypatch.setenv("QUIZBOT_GRACE_HOURS", "4")
    settings = load_settings(config)
    assert settings.timezone == "Asia/Tokyo"  # only in the TOML file
    assert settings.default_schedule == "daily 08:00"
    assert settings.grace_hours == 4  # environment beats .env beats TOML
    assert load_settings(config, grace_hours=1).grace_hours == 1  # flags beat everything


def test_bad_values_are_refused_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("QUIZBOT_TIMEZONE", "Mars/Olympus")
    with pytest.raises(ValidationError, match="unknown timezone 'Mars/Olympus'"):
        load_settings()
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(tmp_path / "missing.toml")


def test_secrets_are_not_shown_in_repr_or_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_DATABASE_URL", "postgresql://q:VERY-SECRET@db/quiz")
    settings = load_settings()
    assert "VERY-SECRET" not in repr(settings)
    monkeypatch.setenv("QUIZBOT_GRACE_HOURS", "VERY-SECRET")
    with pytest.raises(ValidationError) as caught:
        load_settings()
    assert "VERY-SECRET" not in str(caught.value)


def test_sqlite_synchronous_is_normal_unless_set_to_full(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().sqlite_synchronous == "normal"
    monkeypatch.setenv("QUIZBOT_SQLITE_SYNCHRONOUS", "full")
    assert load_settings().sqlite_synchronous == "full"
    monkeypatch.setenv("QUIZBOT_SQLITE_SYNCHRONOUS", "off")
    with pytest.raises(ValidationError) as caught:
        load_settings()
    assert "sqlite_synchronous" in str(caught.value)


@pytest.mark.parametrize("zone", ["America/Argentina", "Europe/" + "x" * 256, "Mars/Olympus"])
def test_a_default_timezone_that_is_no_zone_is_a_settings_error(
    monkeypatch: pytest.MonkeyPatch, zone: str
) -> None:
    monkeypatch.setenv("QUIZBOT_TIMEZONE", zone)
    with pytest.raises(ValidationError) as caught:
        load_settings()
    assert "unknown timezone" in str(caught.value)


def test_a_config_file_that_is_not_toml_is_a_settings_error_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('timezone = "UTC"\nthis is not toml\n')
    with pytest.raises(SettingsError, match=r"quizbot\.toml is not valid TOML: .*line 2"):
        load_settings(config)
