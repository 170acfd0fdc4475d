"""`quizbot discord invite-url`."""

from __future__ import annotations

import argparse
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.discord import cli as invite
from adapters.discord.invite import required_permissions
from tests.discord.fake_discord import APPLICATION_ID, FakeDiscord


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    invite.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


def test_invite_url_has_the_scopes_and_exactly_the_permissions_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run(["discord", "invite-url", "--client-id", "123456"]) == 0

    query = parse_qs(urlsplit(capsys.readouterr().out.strip()).query)
    assert query["client_id"] == ["123456"]
    assert query["scope"] == ["bot applications.commands"]
    documented_bits = {
        "VIEW_CHANNEL": 1 << 10,
        "SEND_MESSAGES": 1 << 11,
        "SEND_MESSAGES_IN_THREADS": 1 << 38,
        "CREATE_PUBLIC_THREADS": 1 << 35,
        "CREATE_PRIVATE_THREADS": 1 << 36,
        "ADD_REACTIONS": 1 << 6,
        "READ_MESSAGE_HISTORY": 1 << 16,
        "EMBED_LINKS": 1 << 14,
    }
    assert int(query["permissions"][0]) == sum(documented_bits.values())
    assert required_permissions().value == sum(documented_bits.values())


def test_without_a_client_id_or_token_it_says_what_to_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUIZBOT_DISCORD_TOKEN", raising=False)
    monkeypatch.chdir("/")  # no .env

    assert _run(["discord", "invite-url"]) == 2

    assert "QUIZBOT_DISCORD_TOKEN" in capsys.readouterr().err


async def test_the_client_id_is_asked_from_discord_with_the_token(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZBOT_DISCORD_TOKEN", "fake-token")
    monkeypatch.setenv("QUIZBOT_DISCORD_API_URL", fake.base_url)

    assert await invite._application_id(None) == APPLICATION_ID
    assert fake.requests_to("GET", "/oauth2/applications/@me")
