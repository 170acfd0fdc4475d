"""Each platform's own settings (``QUIZBOT_SLACK_*``, ``QUIZBOT_DISCORD_*``), read as the
core's are, and the platforms ``QUIZBOT_PLATFORM`` picks with the credentials they need."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from adapters.discord.settings import DiscordSettings
from adapters.platforms import choose_platforms, setting_names
from adapters.slack.settings import SlackSettings
from bot.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[1]
PAIR = ("slack", "discord")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(__import__("os").environ):
        if name.startswith("QUIZBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_tokens_pick_the_platforms_in_auto_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("QUIZBOT_DISCORD_TOKEN", "discord-1")
    assert choose_platforms(load_settings()).names == ["discord", "slack"]


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
        choose_platforms(load_settings()).check_credentials()


def test_env_example_lists_every_setting() -> None:
    listed = set(re.findall(r"^QUIZBOT_([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert listed == {name.upper() for name in [*Settings.model_fields, *setting_names()]}


def test_the_env_example_copied_as_is_runs_the_console(tmp_path: Path) -> None:
    """The README says `cp .env.example .env` and fill in what you need: the empty
    lines left for the rest mean "not set", not "set to nothing"."""
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text())
    settings = load_settings()
    assert choose_platforms(settings).names == ["console"]
    assert settings.http_port is None


def test_installs_in_many_slack_workspaces_are_refused_clearly_when_set_up_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_ID", "1111.2222")
    assert choose_platforms(load_settings()).names == [
        "slack"
    ]  # auto: the app's client id is enough
    with pytest.raises(SettingsError, match=r"needs HTTP mode .* set QUIZBOT_SLACK_MODE=http"):
        choose_platforms(load_settings()).check_credentials()
    monkeypatch.setenv("QUIZBOT_SLACK_MODE", "http")
    with pytest.raises(SettingsError) as missing:
        choose_platforms(load_settings()).check_credentials()
    assert str(missing.value) == (
        "missing setting: set QUIZBOT_SLACK_CLIENT_SECRET and "
        "QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY and QUIZBOT_SLACK_SIGNING_SECRET"
    )
    monkeypatch.setenv("QUIZBOT_SLACK_CLIENT_SECRET", "client-secret")
    monkeypatch.setenv("QUIZBOT_SLACK_TOKEN_ENCRYPTION_KEY", "some-key")
    monkeypatch.setenv("QUIZBOT_SLACK_SIGNING_SECRET", "signing-secret")
    choose_platforms(load_settings()).check_credentials()  # complete: nothing raised
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-one-workspace")
    with pytest.raises(SettingsError, match=r"either QUIZBOT_SLACK_BOT_TOKEN .* not both"):
        choose_platforms(load_settings()).check_credentials()
    monkeypatch.setenv("QUIZBOT_SLACK_REDIRECT_URI", "quiz.example/slack/oauth_redirect")
    with pytest.raises(ValidationError) as caught:
        choose_platforms(load_settings())
    assert "is not a URL: use https://<your host>/slack/oauth_redirect" in str(caught.value)


def test_a_platforms_settings_come_from_the_environment_dotenv_and_toml(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('timezone = "Asia/Tokyo"\nslack_mode = "http"\ndiscord_shard_count = 2\n')
    (tmp_path / ".env").write_text("QUIZBOT_GRACE_HOURS=3\nQUIZBOT_SLACK_ADMINS=U1, U2\n")
    platforms = choose_platforms(load_settings(config, also_known=setting_names()), config)
    slack, discord = (next(s.settings for s in platforms.every if s.name == n) for n in PAIR)
    assert isinstance(slack, SlackSettings) and isinstance(discord, DiscordSettings)
    assert slack.slack_admins == ["U1", "U2"]  # from .env
    assert slack.slack_mode == "http"  # from the TOML file, keys as before
    assert discord.discord_shard_count == 2
    monkeypatch.setenv("QUIZBOT_SLACK_ADMINS", '["U3", "U4"]')
    assert SlackSettings().slack_admins == ["U3", "U4"]  # a JSON list is read too
    with pytest.raises(
        SettingsError, match=r"unknown key 'slack_mdoe' \(did you mean 'slack_mode'"
    ):
        config.write_text('slack_mdoe = "http"\n')
        load_settings(config, also_known=setting_names())


def test_an_unknown_platform_is_refused_clearly() -> None:
    with pytest.raises(SettingsError, match="unknown platform 'teams'"):
        choose_platforms(load_settings(platform="teams"))


def test_a_platforms_secrets_are_not_shown_in_repr_or_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-VERY-SECRET")
    platforms = choose_platforms(load_settings())
    assert "xoxb-VERY-SECRET" not in repr(platforms)
    monkeypatch.setenv("QUIZBOT_SLACK_BOT_TOKEN", "xoxb-VERY-SECRET\n")
    with pytest.raises(ValidationError) as caught:
        choose_platforms(load_settings())
    assert "VERY-SECRET" not in str(caught.value)
    assert "malformed: the token holds a line break" in str(caught.value)
