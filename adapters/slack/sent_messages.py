"""Messages of ours, marked with their outbox key and found by it after a crash.

Every message the bot posts carries message metadata with its outbox key (and
its part number for a card split across messages). After a crash between
sending and recording, the outbox asks whether the action was already done:
the search looks through a thread's every page, or through the channel's
history back to when the round was created (``oldest``), so a busy channel
cannot hide a message that was sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.errors import slack_call

METADATA_EVENT_TYPE = "quizbot_action"
PAGE_SIZE = 200
# Without a start time, the newest 400 top-level messages are searched at most.
PAGES_WITHOUT_START = 2
# Our clock and Slack's may differ a little: look a bit earlier than the round began.
CLOCK_MARGIN = timedelta(minutes=5)


def message_metadata(key: str, part: int = 0, *, continued: bool = False) -> dict[str, Any]:
    """``continued``: a later piece of a part Slack refused as too long and that was
    split further; it never stands for the part."""
    payload: dict[str, Any] = {"key": key}
    if part:
        payload["part"] = part
    if continued:
        payload["continued"] = True
    return {"event_type": METADATA_EVENT_TYPE, "event_payload": payload}


def metadata_key(message: Mapping[str, Any]) -> tuple[str, int] | None:
    """The outbox key and part number a message of ours carries, if any (a continued
    piece of a part carries none of its own)."""
    metadata = message.get("metadata") or {}
    if metadata.get("event_type") != METADATA_EVENT_TYPE:
        return None
    payload = metadata.get("event_payload") or {}
    key = payload.get("key")
    if not key or payload.get("continued"):
        return None
    return str(key), int(payload.get("part") or 0)


class SentMessages:
    """Finds a message of ours by its outbox key in a channel's or a thread's history."""

    def __init__(self, client: AsyncWebClient) -> None:
        self._client = client

    async def find(
        self, channel: str, key: str, *, thread: str | None, since: datetime | None
    ) -> str | None:
        """The ts of the (first part of the) message carrying ``key``, if any: in the
        thread ``thread``, else among the channel's messages since ``since``."""
        pages = (
            self._replies(channel, thread) if thread is not None else self._history(channel, since)
        )
        async for message in pages:
            if message.get("ts") != thread and metadata_key(message) == (key, 0):
                return str(message["ts"])
        return None

    async def find_file(self, channel: str, filename: str) -> str | None:
        """The id of a file named ``filename`` shared into the channel lately, if any."""
        async for message in self._history(channel, None):
            for shared in message.get("files") or ():
                if shared.get("name") == filename and shared.get("id"):
                    return str(shared["id"])
        return None

    def _history(self, channel: str, since: datetime | None) -> AsyncIterator[Mapping[str, Any]]:
        options: dict[str, Any] = {}
        if since is not None:
            options["oldest"] = f"{(since - CLOCK_MARGIN).timestamp():.6f}"

        async def page(cursor: str | None) -> Any:
            return await self._client.conversations_history(
                channel=channel,
                limit=PAGE_SIZE,
                include_all_metadata=True,
                cursor=cursor,
                **options,
            )

        return _messages("conversations.history", page, None if since else PAGES_WITHOUT_START)

    def _replies(self, channel: str, thread: str) -> AsyncIterator[Mapping[str, Any]]:
        async def page(cursor: str | None) -> Any:
            return await self._client.conversations_replies(
                channel=channel,
                ts=thread,
                limit=PAGE_SIZE,
                include_all_metadata=True,
                cursor=cursor,
            )

        return _messages("conversations.replies", page, None)


async def _messages(
    method: str, page: Callable[[str | None], Awaitable[Any]], max_pages: int | None
) -> AsyncIterator[Mapping[str, Any]]:
    """The messages of every page (at most ``max_pages``), following Slack's cursor."""
    cursor: str | None = None
    pages = 0
    while max_pages is None or pages < max_pages:
        async with slack_call(method):
            answer = await page(cursor)
        pages += 1
        for message in answer.get("messages") or []:
            yield message
        cursor = _next_cursor(answer)
        if cursor is None:
            return


def _next_cursor(page: Any) -> str | None:
    cursor = (page.get("response_metadata") or {}).get("next_cursor")
    return str(cursor) if cursor else None
