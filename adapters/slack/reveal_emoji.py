"""Which emoji Slack can react with: a standard one, or a custom one of the workspace.

Checked when an admin configures the reveal emoji, so a choice Slack would
refuse at every question (``invalid_name``) is refused once, with the reason,
in the answer to ``/quiz config reveal-emoji``.
"""

from __future__ import annotations

import logging

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.emoji import NAME_TO_UNICODE, name_in, standard_name
from adapters.slack.errors import slack_call
from bot.kernel.errors import PlatformError, Refused
from bot.kernel.quoting import quoted

log = logging.getLogger(__name__)

PICK_ONE = "Pick one from Slack's emoji picker, or :name: of one of this workspace's emoji."


class WorkspaceEmoji:
    """Whether Slack can react with an emoji in this workspace (standard or custom)."""

    def __init__(self, client: AsyncWebClient) -> None:
        self._client = client

    async def reaction_emoji(self, emoji: str) -> str:
        """A standard emoji as Unicode, a custom one as ``:name:``; ``Refused`` otherwise."""
        standard = standard_name(emoji)
        if standard is not None:
            return NAME_TO_UNICODE[standard]
        name = name_in(emoji)
        if name is None:
            raise Refused(f"Slack cannot react with {quoted(emoji)}. {PICK_ONE}")
        if not await self._has_custom(name):
            raise Refused(f"This workspace has no emoji named :{name}:. {PICK_ONE}")
        return f":{name}:"

    async def _has_custom(self, name: str) -> bool:
        try:
            async with slack_call("emoji.list"):
                response = await self._client.emoji_list()
        except PlatformError as problem:
            # Without the emoji:read scope the name cannot be checked: trust the admin.
            log.warning("could not check the custom emoji :%s: (%s)", name, problem)
            return True
        custom = response.get("emoji")
        return isinstance(custom, dict) and name in custom
