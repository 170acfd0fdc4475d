"""Settings: environment, .env, TOML, and errors that name the variable to set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(__import__("os").environ):
        if name.startswith("QUIZBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults_run_the_console() -> None:
    settings = load_settings()
    assert settings.platforms() == ["console"]
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
    assert settings.slack_admins == ["U1", "U2"]
    assert load_settings(config, grace_hours=1).grace_hours == 1  # flags beat everything
    monkeypatch.setenv("QUIZBOT_SLACK_ADMINS", '["U3", "U4"]')
    assert load_settings().slack_admins == ["U3", "U4"]  # a JSON list is read too


def test_tokens_pick_the_platforms_in_auto_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("QUIZBOT_DISCORD_TOKEN", "discord-1")
    assert load_settings().platforms() == ["discord", "slack"]


@pytest.mark.parametrize(
    ("environment", "missing"),
    [
        ({"QUIZBOT_PLATFORM": "slack"}, "QUIZBOT_SLACK_BOT_TOKEN and QUIZBOT_SLACK_APP_TOKEN"),
        (
            {
                "QUIZBOT_PLATFORM": "slack",
                "QUIZBOT_SLACK_MODE": "http",
                "QUIZBOT_SLACK_BOT_TOKEN": "x",
            },
            "QUIZBOT_SLACK_SIGNING_SECRET",
        ),
        ({"QUIZBOT_PLATFORM": "discord,console"}, "QUIZBOT_DISCORD_TOKEN"),
    ],
)
def test_a_missing_credential_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], missing: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=re.escape(f"set {missing}")):
        load_settings().check_credentials()


def test_bad_values_are_refused_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="unknown platform 'teams'"):
        load_settings(platform="teams").platforms()
    monkeypatch.setenv("QUIZBOT_TIMEZONE", "Mars/Olympus")
    with pytest.raises(ValidationError, match="unknown timezone 'Mars/Olympus'"):
        load_settings()
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(tmp_path / "missing.toml")


def test_secrets_are_not_shown_in_repr_or_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-VERY-SECRET")
    settings = load_settings()
    assert "xoxb-VERY-SECRET" not in repr(settings)
    monkeypatch.setenv("QUIZBOT_GRACE_HOURS", "xoxb-VERY-SECRET")
    with pytest.raises(ValidationError) as caught:
        load_settings()
    assert "xoxb-VERY-SECRET" not in str(caught.value)


def test_env_example_lists_every_setting() -> None:
    listed = set(re.findall(r"^QUIZBOT_([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert listed == {name.upper() for name in Settings.model_fields}


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


def test_the_env_example_copied_as_is_runs_the_console(tmp_path: Path) -> None:
    """The README says `cp .env.example .env` and fill in what you need: the empty
    lines left for the rest mean "not set", not "set to nothing"."""
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text())
    settings = load_settings()
    assert settings.platforms() == ["console"]
    assert settings.http_port is None


def test_installs_in_many_slack_workspaces_are_refused_clearly_when_set_up_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_ID", "1111.2222")
    assert load_settings().platforms() == ["slack"]  # auto: the app's client id is enough
    with pytest.raises(SettingsError, match=r"needs HTTP mode .* set QUIZBOT_SLACK_MODE=http"):
        load_settings().check_credentials()
    monkeypatch.setenv("QUIZBOT_SLACK_MODE", "http")
    with pytest.raises(SettingsError) as missing:
        load_settings().check_credentials()
    assert str(missing.value) == (
        "missing setting: set QUIZBOT_SLACK_CLIENT_SECRET and "
        "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY and QUIZBOT_SLACK_SIGNING_SECRET"
    )
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_SECRET", "client-secret")
    monkeypatch.setenv("QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY", "some-key")
    monkeypatch.setenv("QUIZBOT_SLACK_SIGNING_SECRET", "signing-secret")
    load_settings().check_credentials()  # complete: nothing raised
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-one-workspace")
    with pytest.raises(SettingsError, match=r"either QUIZBOT_SLACK_BOT_TOKEN .* not both"):
        load_settings().check_credentials()
    monkeypatch.setenv("QUIZBOT_SLACK_REDIRECT_URI", "quiz.example/slack/oauth_redirect")
    with pytest.raises(ValidationError) as caught:
        load_settings()
    assert "is not a URL: use https://<your host>/slack/oauth_redirect" in str(caught.value)


def test_a_config_file_that_is_not_toml_is_a_settings_error_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('timezone = "UTC"\nthis is not toml\n')
    with pytest.raises(SettingsError, match=r"quizbot\.toml is not valid TOML: .*line 2"):
        load_settings(config)
