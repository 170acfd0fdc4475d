"""The Slack platform: the core's ``Platform`` (outbound) and ``Connector`` (inbound).

Outbound calls go through the ``AsyncWebClient`` of the channel's workspace (its
base URL can point at GovSlack, an Enterprise proxy or a test server) with the SDK's
``AsyncRateLimitErrorRetryHandler``; posts to one channel, and to one workspace,
are paced. One bot token serves one workspace; with installs in many workspaces
(``QUIZBOT_SLACK_CLIENT_ID``) each workspace's bot token comes from its
installation (``adapters.slack.workspaces``).
Every message the bot posts carries message metadata with its outbox key, so
:meth:`SlackPlatform.find_sent` can tell, after a crash between sending and
recording, that an action was already done.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import aiohttp
from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.background import BackgroundWork
from adapters.slack.card_posts import ALT_TEXT_LIMIT, CardPosts, fitting, nothing_to_record
from adapters.slack.emoji import to_name
from adapters.slack.errors import (
    TokenRefused,
    error_code,
    refused_for_good,
    slack_call,
    to_platform_error,
)
from adapters.slack.home import SlackHome
from adapters.slack.inbound import Removal, direct_ref
from adapters.slack.listeners import SlackListeners
from adapters.slack.mentions import USER_GROUP_FORM, mentioned_user_group
from adapters.slack.pacing import ChannelPacer
from adapters.slack.render import SlackMessage, render_card
from adapters.slack.transport import HttpTransport, SlackTransport, SocketModeTransport
from adapters.slack.web_client import SharedSessionWebClient
from adapters.slack.workspace_pacing import (
    WorkspacePacer,
)
from adapters.slack.workspaces import (
    OneWorkspace,
    SlackWorkspace,
    Workspaces,
)
from adapters.unfinished_sends import SendProgress, UnfinishedSends
from bot.kernel.errors import ChannelUnavailable, PlatformError, WorkspaceRemoved
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card, Image
from bot.kernel.runtime import EventHandler, WorkspaceInstalls
from bot.member_data.home import HomePages

if TYPE_CHECKING:
    from adapters.slack.installs import SlackInstalls

log = logging.getLogger(__name__)


DEFAULT_HTTP_PORT = 3000


class SlackPlatform:
    """Slack as a quiz platform: the Platform (outbound, Web API) and the Connector
    (inbound, Socket Mode or HTTP through bolt)."""

    name = "slack"
    admin_rule = "a workspace admin or owner, or listed in QUIZBOT_SLACK_ADMINS"
    group_form = USER_GROUP_FORM  # the core's GroupMentions, for /quiz config ping

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
        installs: SlackInstalls | None = None,
    ) -> None:
        """``client`` is the bot token's client; with ``installs`` (many workspaces) it
        has no token and serves the OAuth flow only."""
        self.client = client
        self._pacer = pacer or ChannelPacer()
        self._installs = installs
        self._workspaces: Workspaces = (
            installs.workspaces
            if installs is not None
            else OneWorkspace(
                SlackWorkspace("", client, workspace or WorkspacePacer(None), admins=admins)
            )
        )
        self._unfinished: SendProgress = progress or UnfinishedSends()
        self._posts = CardPosts(self._pacer, self._unfinished)
        self._work = BackgroundWork()
        self._listeners = SlackListeners(
            self, self._work, serves=self._serves if installs is not None else None
        )
        options: dict[str, Any] = {}
        if installs is not None:
            options = {"oauth_flow": installs.flow(client), "authorize": installs.authorize}
        self.app = AsyncApp(
            client=client,
            signing_secret=signing_secret,
            request_verification_enabled=http,
            process_before_response=True,
            before_authorize=self._listeners.admission,
            name="quizbot",
            **options,
        )
        self._listeners.register(self.app)
        self._home: SlackHome | None = None
        self.http_transport: HttpTransport | None = None
        self._transport: SlackTransport
        if http:
            self.http_transport = HttpTransport(
                self.app,
                signing_secret=signing_secret,
                host=host,
                port=port,
                oauth_flow=self.app.oauth_flow if installs is not None else None,
            )
            self._transport = self.http_transport
        else:
            self._transport = SocketModeTransport(self.app, app_token)

    # ---- Connector

    def watch_installs(self, core: WorkspaceInstalls) -> None:
        """The core's ``WatchesInstalls``: a removal of the app disables the workspace's
        channels through ``core``, a reinstall enables them again."""
        if self._installs is not None:
            self._installs.watch(core)

    def show_home(self, pages: HomePages) -> None:
        """The core's ``ShowsHome``: members' pages on the app's Home tab."""
        self._home = SlackHome(self, pages, self._work)
        self._home.register(self.app)

    async def client_for(self, team: str) -> AsyncWebClient:
        """The Web API client of workspace ``team``."""
        return (await self.workspace(team)).client

    async def start(self, handler: EventHandler) -> None:
        self._listeners.attach(handler)
        if self._home is not None:
            self._home.attach(handler)
        if self._installs is None:
            async with slack_call("auth.test"):  # a wrong bot token fails here, clearly
                identity = await self.client.auth_test()
            log.info(
                "Slack bot %s in workspace %s", identity.get("user_id"), identity.get("team_id")
            )
        else:
            log.info("Slack app serving every workspace that installs it")
        await self._transport.start()

    async def stop(self) -> None:
        await self._transport.stop()
        await self._work.drain()
        await self._workspaces.close()
        if isinstance(self.client, SharedSessionWebClient):
            await self.client.close()

    def send_delay(self, channel: ChannelRef) -> float:
        """The core's ``PacedSends``: how long a post to the channel would wait for its
        per-channel pacing (the outbox puts the post off that long instead of holding a
        send slot while the pacer sleeps)."""
        return self._pacer.delay(channel.channel_id)

    @property
    def post_rate(self) -> float | None:
        """The post rate now of the bot token's workspace (posts per second; None: not
        paced, or installs in many workspaces, each paced on its own)."""
        if isinstance(self._workspaces, OneWorkspace):
            return self._workspaces.workspace.pacer.rate
        return None

    async def workspace_removed(self, removal: Removal) -> None:
        """``app_uninstalled`` or the bot token's ``tokens_revoked``: with installs, the
        installation older than the event is forgotten and the workspace's channels
        disabled (idempotent). One bot token: logged only, the set-up stays as the
        operator made it."""
        if self._installs is None:
            log.warning(
                "the Slack app was removed from workspace %s (its token is revoked)", removal.team
            )
            return
        await self._installs.removed(removal)

    async def workspace(self, team: str) -> SlackWorkspace:
        """The workspace ``team`` as the bot acts in it."""
        return await self._workspaces.get(team)

    async def _serves(self, team: str) -> bool:
        """Whether the bot acts in workspace ``team``: installed there, its token not
        refused (what bolt's authorize step finds)."""
        try:
            await self._workspaces.get(team)
        except (WorkspaceRemoved, TokenRefused):
            return False
        return True

    @property
    def connected(self) -> bool:
        return self._transport.connected

    async def wait_idle(self) -> None:
        """Wait until every acknowledged command and button has been answered."""
        await self._work.drain()

    # ---- Platform

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        workspace = await self.workspace(channel.workspace)
        ts = await self._posts.post_all(
            workspace, channel.channel_id, render_card(card), key=key, thread_ts=None
        )
        await self._posts.upload(workspace, channel.channel_id, card.image, thread_ts=None)
        return MessageRef(channel, ts)

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef:
        # A Slack thread is the replies to a message: nothing to create.
        return ThreadRef(message.channel, message.message_id)

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef:
        workspace = await self.workspace(thread.channel.workspace)
        ts = await self._posts.post_all(
            workspace,
            thread.channel.channel_id,
            render_card(card),
            key=key,
            thread_ts=thread.thread_id,
        )
        await self._posts.upload(
            workspace, thread.channel.channel_id, card.image, thread_ts=thread.thread_id
        )
        return MessageRef(thread.channel, ts)

    async def react(self, message: MessageRef, emoji: str) -> None:
        client = (await self.workspace(message.channel.workspace)).client
        try:
            async with slack_call("reactions.add"):
                await client.reactions_add(
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
        client = (await self.workspace(member.workspace)).client
        async with slack_call("conversations.open"):
            opened = await client.conversations_open(users=member.member_id)
        channel = opened.get("channel") or {}
        if not channel.get("id"):
            raise PlatformError("conversations.open gave no channel")
        return direct_ref(member.workspace, str(channel["id"]))

    async def send_file(self, member: MemberRef, file: DataFile) -> str:
        """The core's ``SendsFiles``: the file uploaded into the member's IM with the bot
        (``files_upload_v2``, scope ``files:write``; the IM needs ``im:write``)."""
        direct = await self.open_direct(member)
        client = (await self.workspace(member.workspace)).client
        async with self._pacer.slot(direct.channel_id), slack_call("files.completeUploadExternal"):
            await client.files_upload_v2(
                channel=direct.channel_id,
                file=file.content,
                filename=file.filename,
                title=file.filename,
                initial_comment=file.comment,
            )
        return "in your direct messages with me"

    async def open_shared(
        self,
        channel: ChannelRef,
        members: Sequence[MemberRef],
        title: str,
        *,
        key: str,
        again: bool = False,
    ) -> ChannelRef:
        """The group DM of ``members`` and the bot (``conversations.open`` with their ids,
        scope ``mpim:write``): Slack gives the same one for the same members again."""
        client = (await self.workspace(channel.workspace)).client
        users = ",".join(m.member_id for m in members)
        async with slack_call("conversations.open"):
            opened = await client.conversations_open(users=users)
        found = opened.get("channel") or {}
        if not found.get("id"):
            raise PlatformError("conversations.open gave no channel")
        return ChannelRef(channel.platform, channel.workspace, str(found["id"]), title)

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        # Slack has no ephemeral files: a private card (``/quiz me``) goes out as text,
        # which carries every figure of its picture.
        client = (await self.workspace(channel.workspace)).client

        async def tell_one(message: SlackMessage, continued: bool) -> str:
            async with slack_call("chat.postEphemeral"):
                await client.chat_postEphemeral(
                    channel=channel.channel_id,
                    user=member.member_id,
                    text=message.text,
                    blocks=message.blocks,
                )
            return ""

        for message in render_card(card):
            await fitting(message, tell_one, nothing_to_record)

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
        sent = (await self.workspace(channel.workspace)).sent
        ts = await sent.find(
            channel.channel_id, key, thread=thread.thread_id if thread else None, since=since
        )
        return MessageRef(channel, ts) if ts is not None else None

    # ---- the core's SeparateImages: a recap's chart, uploaded as a step of its own

    async def post_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """Upload ``image`` into the channel alone (``files_upload_v2``, scope
        ``files:write``). A failure that may pass (a rate limit, an error of Slack's or of
        the network) raises, so the outbox retries it; a refusal that will not (such as
        ``missing_scope``) is logged and gives None. The file's id stands for the message."""
        workspace = await self.workspace(channel.workspace)
        method = "files.completeUploadExternal"
        try:
            async with self._pacer.slot(channel.channel_id):
                answer = await workspace.client.files_upload_v2(
                    channel=channel.channel_id,
                    file=image.png,
                    filename=image.filename,
                    title=image.filename,
                    alt_txt=image.description[:ALT_TEXT_LIMIT],
                )
        except SlackApiError as error:
            problem = to_platform_error(method, error)
            if isinstance(problem, ChannelUnavailable) or not refused_for_good(error):
                raise problem from error
            log.warning("the chart %s was refused: %s", image.filename, problem)
            return None
        except (TimeoutError, aiohttp.ClientError, SlackClientError) as error:
            raise PlatformError(f"Slack {method}: {type(error).__name__}") from error
        uploaded = answer.get("file") or {}
        return MessageRef(channel, str(uploaded.get("id") or image.filename))

    async def find_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """An upload of ``image`` among the channel's recent messages, by its file name (a
        recap's names its week: one per channel): a file carries no metadata of ours."""
        sent = (await self.workspace(channel.workspace)).sent
        file_id = await sent.find_file(channel.channel_id, image.filename)
        return MessageRef(channel, file_id) if file_id is not None else None

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool:
        return await (await self.workspace(member.workspace)).members.is_admin(member.member_id)

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        """The message's permalink (``chat.getPermalink``, which needs no scope); None
        when Slack gives none, so a recap still goes out without it."""
        try:
            client = (await self.workspace(message.channel.workspace)).client
            async with slack_call("chat.getPermalink"):
                found = await client.chat_getPermalink(
                    channel=message.channel.channel_id, message_ts=message.message_id
                )
        except PlatformError as problem:
            log.warning("no permalink for a message: %s", problem)
            return None
        permalink = found.get("permalink")
        return str(permalink) if permalink else None

    async def reaction_emoji(self, emoji: str, channel: ChannelRef) -> str:
        """The core's ``ReactionEmoji`` check: Slack reacts with its own emoji only (and
        the custom ones of the channel's workspace)."""
        return await (await self.workspace(channel.workspace)).emoji.reaction_emoji(emoji)

    def mentioned_group(self, typed: str) -> str | None:
        """The core's ``GroupMentions``: the user group a ``<!subteam^ID>`` mention names."""
        return mentioned_user_group(typed)

    # ---- for the listeners

    async def open_form(self, team: str, trigger_id: str, view: dict[str, Any]) -> None:
        """Open a modal (``views.open`` needs only the trigger of a command or click,
        within 3 seconds, and no scope beyond ``commands``)."""
        client = (await self.workspace(team)).client
        async with slack_call("views.open"):
            await client.views_open(trigger_id=trigger_id, view=view)

    async def display_name(self, member: MemberRef) -> str:
        """Best effort: the member's name, or "" (never fails an event over a name)."""
        try:
            workspace = await self.workspace(member.workspace)
        except PlatformError:
            return ""
        return await workspace.members.display_name(member.member_id)
