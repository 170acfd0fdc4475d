"""The Slack platform: the core's ``Platform`` (outbound) and ``Connector`` (inbound).

Outbound calls go through one ``AsyncWebClient`` (its base URL can point at
GovSlack, an Enterprise proxy or a test server) with the SDK's
``AsyncRateLimitErrorRetryHandler``, and posts to one channel are paced.
Every message the bot posts carries message metadata with its outbox key, so
:meth:`SlackPlatform.find_sent` can tell, after a crash between sending and
recording, that an action was already done.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.admins import SlackMembers
from adapters.slack.background import BackgroundWork
from adapters.slack.emoji import to_name
from adapters.slack.errors import error_code, slack_call
from adapters.slack.inbound import direct_ref
from adapters.slack.listeners import SlackListeners
from adapters.slack.pacing import DEFAULT_INTERVAL, ChannelPacer
from adapters.slack.render import SlackMessage, render_card
from adapters.slack.reveal_emoji import WorkspaceEmoji
from adapters.slack.sent_messages import SentMessages, message_metadata
from adapters.slack.transport import HttpTransport, SlackTransport, SocketModeTransport
from adapters.slack.web_client import SharedSessionWebClient
from adapters.slack.workspace_pacing import (
    DEFAULT_POSTS_PER_SECOND,
    PacedRateLimitRetryHandler,
    WorkspacePacer,
)
from adapters.unfinished_sends import SendProgress, UnfinishedSends
from bot.errors import PlatformError
from bot.ports import EventHandler
from bot.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.render import Card, Image
from bot.settings import Settings, required_credentials

log = logging.getLogger(__name__)

ALT_TEXT_LIMIT = 1000  # files.getUploadURLExternal's limit on alt_txt

DEFAULT_HTTP_PORT = 3000


class SlackPlatform:
    """Slack as a quiz platform: the Platform (outbound, Web API) and the Connector
    (inbound, Socket Mode or HTTP through bolt)."""

    name = "slack"
    admin_rule = "a workspace admin or owner, or listed in QUIZBOT_SLACK_ADMINS"

    def __init__(
        self,
        client: AsyncWebClient,
        *,
        signing_secret: str = "",
        app_token: str = "",
        http: bool = False,
        host: str = "0.0.0.0",
        port: int = DEFAULT_HTTP_PORT,
        admins: Sequence[str] = (),
        pacer: ChannelPacer | None = None,
        workspace: WorkspacePacer | None = None,
        progress: SendProgress | None = None,
    ) -> None:
        self.client = client
        self._pacer = pacer or ChannelPacer()
        self._workspace = workspace or WorkspacePacer(None)
        self._unfinished: SendProgress = progress or UnfinishedSends()
        self._emoji = WorkspaceEmoji(client)
        self._sent = SentMessages(client)
        self._members = SlackMembers(self._user_info, allow_list=admins)
        self._work = BackgroundWork()
        self._listeners = SlackListeners(self, self._work)
        self.app = AsyncApp(
            client=client,
            signing_secret=signing_secret,
            request_verification_enabled=http,
            process_before_response=True,
            before_authorize=self._listeners.admit,
            name="quizbot",
        )
        self._listeners.register(self.app)
        self.http_transport: HttpTransport | None = None
        self._transport: SlackTransport
        if http:
            self.http_transport = HttpTransport(
                self.app, signing_secret=signing_secret, host=host, port=port
            )
            self._transport = self.http_transport
        else:
            self._transport = SocketModeTransport(self.app, app_token)

    # ---- Connector

    async def start(self, handler: EventHandler) -> None:
        self._listeners.attach(handler)
        async with slack_call("auth.test"):  # a wrong bot token fails here, clearly
            identity = await self.client.auth_test()
        log.info("Slack bot %s in workspace %s", identity.get("user_id"), identity.get("team_id"))
        await self._transport.start()

    async def stop(self) -> None:
        await self._transport.stop()
        await self._work.drain()
        if isinstance(self.client, SharedSessionWebClient):
            await self.client.close()

    def send_delay(self, channel: ChannelRef) -> float:
        """The core's ``PacedSends``: how long a post to the channel would wait for its
        per-channel pacing (the outbox puts the post off that long instead of holding a
        send slot while the pacer sleeps)."""
        return self._pacer.delay(channel.channel_id)

    @property
    def post_rate(self) -> float | None:
        """The workspace's post rate now (posts per second; None: not paced)."""
        return self._workspace.rate

    @property
    def connected(self) -> bool:
        return self._transport.connected

    async def wait_idle(self) -> None:
        """Wait until every acknowledged command and button has been answered."""
        await self._work.drain()

    # ---- Platform

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        ts = await self._post_all(channel.channel_id, render_card(card), key=key, thread_ts=None)
        await self._upload(channel.channel_id, card.image, thread_ts=None)
        return MessageRef(channel, ts)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        # A Slack thread is the replies to a message: nothing to create.
        return ThreadRef(message.channel, message.message_id)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        ts = await self._post_all(
            thread.channel.channel_id, render_card(card), key=key, thread_ts=thread.thread_id
        )
        await self._upload(thread.channel.channel_id, card.image, thread_ts=thread.thread_id)
        return MessageRef(thread.channel, ts)

    async def react(self, message: MessageRef, emoji: str) -> None:
        try:
            async with slack_call("reactions.add"):
                await self.client.reactions_add(
                    channel=message.channel.channel_id,
                    timestamp=message.message_id,
                    name=to_name(emoji),
                )
        except PlatformError as problem:
            cause = problem.__cause__
            if isinstance(cause, SlackApiError) and error_code(cause) == "already_reacted":
                return  # a retried hint: the reaction is there, which is all we wanted
            raise

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        """The member's IM with the bot (``conversations.open``, scope ``im:write``)."""
        async with slack_call("conversations.open"):
            opened = await self.client.conversations_open(users=member.member_id)
        channel = opened.get("channel") or {}
        if not channel.get("id"):
            raise PlatformError("conversations.open gave no channel")
        return direct_ref(member.workspace, str(channel["id"]))

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        # Slack has no ephemeral files: a private card (``/quiz me``) goes out as text,
        # which carries every figure of its picture.
        for message in render_card(card):
            async with slack_call("chat.postEphemeral"):
                await self.client.chat_postEphemeral(
                    channel=channel.channel_id,
                    user=member.member_id,
                    text=message.text,
                    blocks=message.blocks,
                )

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        return await self.find_sent_since(channel, key, thread=thread, since=None)

    async def find_sent_since(
        self,
        channel: ChannelRef,
        key: str,
        *,
        thread: ThreadRef | None = None,
        since: datetime | None,
    ) -> MessageRef | None:
        """The core's ``FindsSentSince``: the thread's every page, or the channel's
        history back to ``since`` (when the round was created)."""
        if await self._unfinished.unfinished_card(key) is not None:
            return None  # some parts are out, not all: the retry resumes the card
        ts = await self._sent.find(
            channel.channel_id, key, thread=thread.thread_id if thread else None, since=since
        )
        return MessageRef(channel, ts) if ts is not None else None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return await self._members.is_admin(member.member_id)

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        """The message's permalink (``chat.getPermalink``, which needs no scope); None
        when Slack gives none, so a recap still goes out without it."""
        try:
            async with slack_call("chat.getPermalink"):
                found = await self.client.chat_getPermalink(
                    channel=message.channel.channel_id, message_ts=message.message_id
                )
        except PlatformError as problem:
            log.warning("no permalink for a message: %s", problem)
            return None
        permalink = found.get("permalink")
        return str(permalink) if permalink else None

    async def reaction_emoji(self, emoji: str) -> str:
        """The core's ``ReactionEmoji`` check: Slack reacts with its own emoji only."""
        return await self._emoji.reaction_emoji(emoji)

    # ---- for the listeners

    async def open_form(self, trigger_id: str, view: dict[str, Any]) -> None:
        """Open a modal (``views.open`` needs only the trigger of a command or click,
        within 3 seconds, and no scope beyond ``commands``)."""
        async with slack_call("views.open"):
            await self.client.views_open(trigger_id=trigger_id, view=view)

    async def display_name(self, user: str) -> str:
        return await self._members.display_name(user)

    # ---- internals

    async def _user_info(self, user: str) -> Mapping[str, Any]:
        async with slack_call("users.info"):
            response = await self.client.users_info(user=user)
        info = response.get("user")
        if not isinstance(info, Mapping):
            raise PlatformError("Slack users.info: no user in the answer")
        return info

    async def _post_all(
        self, channel: str, messages: list[SlackMessage], *, key: str, thread_ts: str | None
    ) -> str:
        """Post the parts of a card in order, resuming after the parts a failed attempt
        already posted; the first part's ts stands for the card."""
        several = len(messages) > 1
        posted = (await self._unfinished.unfinished_card(key) or []) if several else []
        if several and not posted:
            await self._unfinished.begin_card(key)
        for part, message in enumerate(messages):
            if part < len(posted):
                continue
            ts = await self._post_one(channel, message, key=key, part=part, thread_ts=thread_ts)
            if several:
                await self._unfinished.record_card_part(key, ts)
            posted.append(ts)
        if several:
            await self._unfinished.finish_card(key)
        if not posted:
            raise AssertionError("a card renders to at least one message")
        return posted[0]

    async def _upload(self, channel: str, image: Image | None, *, thread_ts: str | None) -> None:
        """Upload the card's picture after its text (``files_upload_v2``, scope
        ``files:write``). A refused or failed upload is logged and the card stays sent:
        its text already carries every figure of the picture."""
        if image is None:
            return
        try:
            async with self._pacer.slot(channel), slack_call("files.completeUploadExternal"):
                await self.client.files_upload_v2(
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
        self, channel: str, message: SlackMessage, *, key: str, part: int, thread_ts: str | None
    ) -> str:
        async with self._pacer.slot(channel):
            await self._workspace.turn()
            try:
                async with slack_call("chat.postMessage"):
                    response = await self.client.chat_postMessage(
                        channel=channel,
                        text=message.text,
                        blocks=message.blocks,
                        thread_ts=thread_ts,
                        metadata=message_metadata(key, part),
                        unfurl_links=False,
                        unfurl_media=False,
                    )
            except PlatformError as problem:
                if problem.retry_after is not None:
                    self._workspace.hold(problem.retry_after)
                raise
        self._workspace.succeeded()
        ts = response.get("ts")
        if not ts:
            raise PlatformError("Slack chat.postMessage: no ts in the answer")
        return str(ts)


def build_web_client(
    settings: Settings,
    *,
    rate_limit_retries: int = 1,
    workspace: WorkspacePacer | None = None,
) -> AsyncWebClient:
    """The Web API client, its calls sharing one HTTP session (closed by
    :meth:`SlackPlatform.stop`); a 429 to a post holds the ``workspace`` pacer's posts."""
    settings.require("slack_bot_token")
    assert settings.slack_bot_token is not None
    options: dict[str, Any] = {}
    if settings.slack_api_url:
        options["base_url"] = settings.slack_api_url
    return SharedSessionWebClient(
        token=settings.slack_bot_token.get_secret_value(),
        retry_handlers=[
            AsyncConnectionErrorRetryHandler(),
            PacedRateLimitRetryHandler(
                workspace or WorkspacePacer(None), max_retry_count=rate_limit_retries
            ),
        ],
        **options,
    )


def create_slack_platform(
    settings: Settings,
    *,
    http: bool = False,
    host: str = "0.0.0.0",
    port: int | None = None,
    post_interval: float = DEFAULT_INTERVAL,
    workspace_rate: float | None = DEFAULT_POSTS_PER_SECOND,
    progress: SendProgress | None = None,
) -> SlackPlatform:
    """The Slack platform from settings: Socket Mode (bot + app token) by default, or HTTP
    (bot token + signing secret) serving ``/slack/events`` on ``host:port``."""
    settings.require(*required_credentials("slack", slack_http=http))
    secret = settings.slack_signing_secret
    app_token = settings.slack_app_token
    workspace = WorkspacePacer(workspace_rate)
    return SlackPlatform(
        build_web_client(settings, workspace=workspace),
        signing_secret=secret.get_secret_value() if secret else "",
        app_token=app_token.get_secret_value() if app_token else "",
        http=http,
        host=host,
        port=DEFAULT_HTTP_PORT if port is None else port,
        admins=settings.slack_admins,
        pacer=ChannelPacer(post_interval),
        workspace=workspace,
        progress=progress,
    )
