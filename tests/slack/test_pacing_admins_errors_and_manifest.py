"""The small parts: pacing, the admin cache, error mapping, the manifest."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from adapters.slack.admins import SlackMembers
from adapters.slack.connector import SlackPlatform
from adapters.slack.errors import to_platform_error
from adapters.slack.pacing import ChannelPacer
from bot.kernel.errors import ChannelUnavailable, PlatformError
from bot.kernel.platform import PacedSends
from bot.kernel.refs import ChannelRef
from tests.fakes import FakeMonotonic

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "slack-manifest.yml"


async def test_posts_to_one_channel_are_spaced_and_other_channels_are_not() -> None:
    time = FakeMonotonic()
    pacer = ChannelPacer(1.0, monotonic=time.monotonic, sleep=time.sleep)
    for channel in ("C1", "C1", "C2", "C1"):
        async with pacer.slot(channel):
            time.now += 0.25  # the post itself
    # each wait runs from the end of the channel's previous post
    assert time.slept == [1.0, 0.75]


async def test_the_pacer_tells_how_long_a_post_to_a_channel_would_wait() -> None:
    time = FakeMonotonic()
    pacer = ChannelPacer(1.0, monotonic=time.monotonic, sleep=time.sleep)
    assert pacer.delay("C1") == 0.0
    async with pacer.slot("C1"):
        assert pacer.delay("C1") == 1.0  # a post under way: the next starts after it
        time.now += 0.25
    time.now += 0.5
    assert pacer.delay("C1") == 0.5
    assert pacer.delay("C2") == 0.0
    platform = SlackPlatform(AsyncWebClient(token="xoxb-test"), pacer=pacer)
    assert isinstance(platform, PacedSends)
    assert platform.send_delay(ChannelRef("slack", "T1", "C1")) == 0.5


def test_a_negative_interval_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        ChannelPacer(-1)


async def test_admin_lookups_are_cached_for_the_ttl_and_the_allow_list_needs_none() -> None:
    calls: list[str] = []
    time = FakeMonotonic()

    async def lookup(user: str) -> dict[str, Any]:
        calls.append(user)
        return {"is_owner": user == "UOWNER", "profile": {"display_name": f"name {user}"}}

    members = SlackMembers(lookup, allow_list=["ULISTED"], ttl_seconds=60, monotonic=time.monotonic)
    assert await members.is_admin("ULISTED")
    assert await members.is_admin("UOWNER")
    assert not await members.is_admin("U1")
    assert await members.display_name("U1") == "name U1"
    assert calls == ["UOWNER", "U1"]
    time.now += 61
    assert await members.is_admin("UOWNER")
    assert calls == ["UOWNER", "U1", "UOWNER"]


async def test_a_failed_name_lookup_gives_an_empty_name() -> None:
    async def lookup(user: str) -> dict[str, Any]:
        raise PlatformError("Slack users.info: ratelimited")

    assert await SlackMembers(lookup).display_name("U1") == ""


async def test_a_slow_name_lookup_gives_up_quickly() -> None:
    async def lookup(user: str) -> dict[str, Any]:
        await asyncio.Event().wait()  # never answers
        raise AssertionError("unreachable")

    assert await SlackMembers(lookup, name_timeout=0.01).display_name("U1") == ""


def _api_error(
    code: str, status: int = 200, headers: dict[str, str] | None = None
) -> SlackApiError:
    response = AsyncSlackResponse(
        client=AsyncWebClient(token="xoxb-secret-token"),
        http_verb="POST",
        api_url="https://slack.com/api/chat.postMessage",
        req_args={"headers": {"Authorization": "Bearer xoxb-secret-token"}},
        data={"ok": False, "error": code},
        headers=headers or {},
        status_code=status,
    )
    return SlackApiError("failed", response)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("code", ["channel_not_found", "not_in_channel", "is_archived"])
def test_a_gone_channel_is_channel_unavailable(code: str) -> None:
    error = to_platform_error("chat.postMessage", _api_error(code))
    assert isinstance(error, ChannelUnavailable)
    assert str(error) == f"Slack chat.postMessage: {code}"


def test_ratelimited_carries_retry_after_and_no_secret() -> None:
    error = to_platform_error(
        "chat.postMessage", _api_error("ratelimited", 429, {"Retry-After": "7"})
    )
    assert type(error) is PlatformError
    assert error.retry_after == 7.0
    assert "xoxb" not in str(error)


def test_other_errors_are_platform_errors_without_retry_after() -> None:
    error = to_platform_error("reactions.add", _api_error("invalid_name"))
    assert type(error) is PlatformError and error.retry_after is None
    assert str(error) == "Slack reactions.add: invalid_name"


def test_manifest_asks_for_exactly_what_the_adapter_uses() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == {
        "commands",
        "chat:write",
        "reactions:write",
        "reactions:read",
        "channels:history",
        "groups:history",
        "users:read",
        "emoji:read",
        "files:write",
        "im:write",
        "im:history",
        "mpim:write",
    }
    settings = manifest["settings"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "message.channels",
        "message.groups",
        "message.im",
        "reaction_added",
        "app_home_opened",
        "app_uninstalled",
        "tokens_revoked",
    }
    assert settings["socket_mode_enabled"] is True
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert settings["interactivity"]["is_enabled"] is True
    assert [c["command"] for c in manifest["features"]["slash_commands"]] == ["/quiz"]


async def test_expired_member_profiles_are_dropped_not_kept() -> None:
    time = FakeMonotonic()

    async def lookup(user: str) -> dict[str, Any]:
        return {"profile": {"display_name": f"name {user}"}}

    members = SlackMembers(lookup, ttl_seconds=60, monotonic=time.monotonic)
    for number in range(500):
        await members.display_name(f"U{number}")
        time.now += 1  # a new member every second; each profile lives 60 s
    assert 55 <= len(members) <= 61
