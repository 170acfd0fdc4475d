"""Log lines: readable text or JSON objects with context; configured secrets never appear."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from adapters.discord.settings import DiscordSettings
from adapters.ops.logs import REDACTED, configure_logging, secret_values
from adapters.slack.settings import SlackSettings
from bot.settings import Settings, SettingsError

SECRETS = {
    "slack_bot_token": "xoxb-SECRET-TEST-bot",
    "slack_app_token": "xapp-SECRET-TEST-app",
    "slack_signing_secret": "signing-SECRET-TEST",
    "discord_token": "discord.SECRET.TEST",
}


def settings(**values: str) -> Settings:
    return Settings(**values)  # type: ignore[arg-type]


def platform_settings() -> list[SlackSettings | DiscordSettings]:
    """The platforms' settings, which hold the secrets."""
    secrets = {name: SecretStr(value) for name, value in SECRETS.items()}
    slack = {name: value for name, value in secrets.items() if name.startswith("slack_")}
    return [
        SlackSettings(**slack),  # type: ignore[arg-type]
        DiscordSettings(discord_token=secrets["discord_token"]),
    ]


@pytest.fixture
def output() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    stream = io.StringIO()
    yield stream
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def log_everything() -> None:
    # not "quizbot.*": slack_bolt sets the level of the logger named after the app ("quizbot")
    log = logging.getLogger("tests.logging")
    context = {"platform": "slack", "channel": "C1", "round": 42}
    log.info("posted with token %s", SECRETS["slack_bot_token"], extra=context)
    log.warning("plain line")
    try:
        raise RuntimeError(f"401 for Bot {SECRETS['discord_token']} / {SECRETS['slack_app_token']}")
    except RuntimeError:
        log.exception(
            "send failed", extra={"platform": "discord", "url": SECRETS["slack_signing_secret"]}
        )


def test_json_lines_parse_and_carry_the_context(output: io.StringIO) -> None:
    configure_logging(settings(log_format="json"), stream=output, also=platform_settings())
    log_everything()
    lines = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [line["level"] for line in lines] == ["INFO", "WARNING", "ERROR"]
    first, plain, failed = lines
    assert first["logger"] == "tests.logging"
    assert first["message"] == f"posted with token {REDACTED}"
    assert (first["platform"], first["channel"], first["round"]) == ("slack", "C1", 42)
    assert first["time"].endswith("+00:00")
    assert "platform" not in plain
    assert failed["platform"] == "discord"
    assert failed["exception"].startswith("Traceback")
    assert f"RuntimeError: 401 for Bot {REDACTED} / {REDACTED}" in failed["exception"]


def test_text_lines_are_readable_and_tagged(output: io.StringIO) -> None:
    configure_logging(settings(), stream=output, also=platform_settings())
    log_everything()
    text = output.getvalue()
    first = text.splitlines()[0]
    assert first.endswith(
        f"INFO tests.logging: posted with token {REDACTED} [platform=slack channel=C1 round=42]"
    )
    assert "WARNING tests.logging: plain line\n" in text
    assert "Traceback (most recent call last)" in text


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_no_configured_secret_reaches_the_output(output: io.StringIO, log_format: str) -> None:
    configure_logging(settings(log_format=log_format), stream=output, also=platform_settings())
    log_everything()
    logging.getLogger("elsewhere").error("unconfigured slack token xoxb-1234-5678-abcdef")
    text = output.getvalue()
    assert text.count(REDACTED) == 4  # message, exception (twice), the other logger
    for secret in [*SECRETS.values(), "xoxb-1234-5678-abcdef"]:
        assert secret not in text


def test_every_secret_setting_is_collected() -> None:
    assert sorted(secret_values(settings(), *platform_settings())) == sorted(SECRETS.values())


def test_reconfiguring_replaces_the_handler(output: io.StringIO) -> None:
    configure_logging(settings(), stream=output, also=platform_settings())
    configure_logging(settings(log_format="json"), stream=output, also=platform_settings())
    logging.getLogger("tests.logging").warning("once")
    assert len(output.getvalue().splitlines()) == 1


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(SettingsError, match="unknown log level 'LOUD'"):
        configure_logging(settings(), level="loud")  # --log-level; the setting is checked too
