"""Each platform's own settings (``QUIZBOT_SLACK_*``, ``QUIZBOT_DISCORD_*``), read as the
core's are, and the platforms ``QUIZBOT_PLATFORM`` picks with the credentials they need."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from adapters.discord.settings import DiscordSettings
from adapters.platforms import PLATFORMS, choose_platforms, setting_names
from adapters.plugin import PlatformPlugin
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


def listed_in(example: str) -> list[str]:
    """The settings an example sets, as their fields are named (``slack_mode``)."""
    return [name.lower() for name in re.findall(r"^QUIZBOT_([A-Z_]+)=", example, re.M)]


def settings_example(plugin: PlatformPlugin[Any]) -> Path:
    """A platform's own settings example, in its folder beside its settings' code."""
    return Path(inspect.getfile(plugin.settings)).parent / "settings.env.example"


def every_example() -> str:
    """What ``cat .env.example adapters/*/settings.env.example > .env`` writes."""
    platforms = sorted((ROOT / "adapters").glob("*/settings.env.example"))
    return "".join(path.read_text() for path in [ROOT / ".env.example", *platforms])


def test_the_env_example_lists_every_core_setting() -> None:
    assert sorted(listed_in((ROOT / ".env.example").read_text())) == sorted(Settings.model_fields)


@pytest.mark.parametrize("plugin", PLATFORMS, ids=lambda plugin: plugin.name)
def test_each_platforms_folder_lists_every_one_of_its_settings(plugin: PlatformPlugin[Any]) -> None:
    listed = listed_in(settings_example(plugin).read_text())
    assert sorted(listed) == sorted(plugin.settings.model_fields)


def test_the_examples_together_list_every_setting_once() -> None:
    listed = listed_in(every_example())
    assert sorted(listed) == sorted([*Settings.model_fields, *setting_names()])


@pytest.mark.parametrize("example", ["core", "every"])
def test_an_example_copied_as_is_runs_the_console(tmp_path: Path, example: str) -> None:
    """`.env.example` says: copy it to .env, with the settings of the platforms you run
    after it, and fill in what you need: the empty lines left for the rest mean "not set",
    not "set to nothing"."""
    text = (ROOT / ".env.example").read_text() if example == "core" else every_example()
    (tmp_path / ".env").write_text(text)
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
