"""A card posted as Slack messages: its parts in order, each paced (per channel and per
workspace) and carrying its outbox key as message metadata, resumed after the parts an
earlier attempt recorded; a message Slack refuses as too long is split, never dropped."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError, SlackClientError

from adapters.slack.errors import error_code, slack_call
from adapters.slack.pacing import ChannelPacer
from adapters.slack.render import SlackMessage, split_message
from adapters.slack.sent_messages import message_metadata
from adapters.slack.workspaces import SlackWorkspace
from adapters.unfinished_sends import SendProgress
from bot.kernel.errors import PlatformError
from bot.kernel.render import Image

log = logging.getLogger(__name__)

ALT_TEXT_LIMIT = 1000  # files.getUploadURLExternal's limit on alt_txt
TOO_LONG = "msg_blocks_too_long"  # Slack's answer to a message whose blocks hold too much


class CardPosts:
    """Posts cards' messages and pictures, paced by ``pacer`` (per channel), their parts
    kept in ``unfinished`` until all are out."""

    def __init__(self, pacer: ChannelPacer, unfinished: SendProgress) -> None:
        self._pacer = pacer
        self._unfinished = unfinished

    async def post_all(
        self,
        workspace: SlackWorkspace,
        channel: str,
        messages: list[SlackMessage],
        *,
        key: str,
        thread_ts: str | None,
    ) -> str:
        """Post the parts of a card in order, resuming after the parts a failed attempt
        already posted; the first part's ts stands for the card."""
        several = len(messages) > 1
        posted = (await self._unfinished.unfinished_card(key) or []) if several else []
        if several and not posted:
            await self._unfinished.begin_card(key)

        async def splitting() -> None:
            """A message Slack refused as too long goes out in pieces: until the last is
            out, the card is unfinished (find_sent must not take its first for all)."""
            nonlocal several
            if not several:
                await self._unfinished.begin_card(key)
                several = True

        for part, message in enumerate(messages):
            if part < len(posted):
                continue

            async def post_one(piece: SlackMessage, continued: bool, part: int = part) -> str:
                return await self._post_one(
                    workspace,
                    channel,
                    piece,
                    key=key,
                    part=part,
                    thread_ts=thread_ts,
                    continued=continued,
                )

            ts = await fitting(message, post_one, splitting)
            if several:
                await self._unfinished.record_card_part(key, ts)
            posted.append(ts)
        if several:
            await self._unfinished.finish_card(key)
        if not posted:
            raise AssertionError("a card renders to at least one message")
        return posted[0]

    async def upload(
        self, workspace: SlackWorkspace, channel: str, image: Image | None, *, thread_ts: str | None
    ) -> None:
        """Upload the card's picture after its text (``files_upload_v2``, scope
        ``files:write``). A refused or failed upload is logged and the card stays sent:
        its text already carries every figure of the picture."""
        if image is None:
            return
        try:
            async with self._pacer.slot(channel), slack_call("files.completeUploadExternal"):
                await workspace.client.files_upload_v2(
                    channel=channel,
                    thread_ts=thread_ts,
                    file=image.png,
                    filename=image.filename,
                    title=image.filename,
                    alt_txt=image.description[:ALT_TEXT_LIMIT],
                )
        except (PlatformError, SlackClientError) as problem:
            log.warning(
                "the chart %s was not uploaded; the text went without it: %s",
                image.filename,
                problem,
            )

    async def _post_one(
        self,
        workspace: SlackWorkspace,
        channel: str,
        message: SlackMessage,
        *,
        key: str,
        part: int,
        thread_ts: str | None,
        continued: bool = False,
    ) -> str:
        async with self._pacer.slot(channel):
            await workspace.pacer.turn()
            try:
                async with slack_call("chat.postMessage"):
                    response = await workspace.client.chat_postMessage(
                        channel=channel,
                        text=message.text,
                        blocks=message.blocks,
                        thread_ts=thread_ts,
                        metadata=message_metadata(key, part, continued=continued),
                        unfurl_links=False,
                        unfurl_media=False,
                    )
            except PlatformError as problem:
                if problem.retry_after is not None:
                    workspace.pacer.hold(problem.retry_after)
                raise
        workspace.pacer.succeeded()
        ts = response.get("ts")
        if not ts:
            raise PlatformError("Slack chat.postMessage: no ts in the answer")
        return str(ts)


SendOne = Callable[[SlackMessage, bool], Awaitable[str]]


async def nothing_to_record() -> None:
    return None


async def fitting(
    message: SlackMessage,
    send: SendOne,
    splitting: Callable[[], Awaitable[None]],
    *,
    continued: bool = False,
) -> str:
    """Send ``message``; one Slack refuses as too long (``msg_blocks_too_long``) is split
    in two (``splitting`` is awaited first) and each half sent the same way, never
    dropped. The first piece's ts stands for it (``send`` is told which pieces continue
    it). A message split this way and cut short by a crash is sent whole again: a piece
    may show twice, none is lost."""
    try:
        return await send(message, continued)
    except PlatformError as problem:
        cause = problem.__cause__
        if not isinstance(cause, SlackApiError) or error_code(cause) != TOO_LONG:
            raise
        halves = split_message(message)
        if len(halves) < 2:
            raise
        log.info("Slack refused a message as too long; sending it in two")
    await splitting()
    first = await fitting(halves[0], send, splitting, continued=continued)
    await fitting(halves[1], send, splitting, continued=True)
    return first
