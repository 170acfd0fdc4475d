"""A fake Slack Web API on 127.0.0.1 (port 0): enough of it for the quiz, with failure knobs.

slack_sdk appends the method name to its base URL, so the client's base URL
is ``<url>/api/``. Messages keep their metadata, so ``conversations.history``
can show a message whose sending the bot never recorded.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TEAM = "T0TEAM"
BOT_USER = "U0BOT"
BOT_ID = "B0BOT"
BOT_TOKEN = "xoxb-test-token"
APP_TOKEN = "xapp-test-token"
TRUE_VALUES = {"1", "true", "True"}


@dataclass
class Posted:
    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    thread_ts: str | None
    metadata: dict[str, Any] | None

    def as_message(self, *, with_metadata: bool) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "message",
            "user": BOT_USER,
            "bot_id": BOT_ID,
            "text": self.text,
            "ts": self.ts,
            "blocks": self.blocks,
        }
        if self.thread_ts:
            message["thread_ts"] = self.thread_ts
        if with_metadata and self.metadata:
            message["metadata"] = self.metadata
        return message

    def block_texts(self) -> list[str]:
        """Every text in the blocks, in order (headers, sections, fields, context)."""
        texts: list[str] = []
        for block in self.blocks:
            if "text" in block:
                texts.append(block["text"]["text"])
            texts.extend(item["text"] for item in block.get("fields", ()))
            if block["type"] == "context":
                texts.extend(item["text"] for item in block["elements"])
        return texts

    @property
    def key(self) -> str | None:
        key = (self.metadata or {}).get("event_payload", {}).get("key")
        return str(key) if key is not None else None

    @property
    def first(self) -> bool:
        """The first message of a card: the one that stands for it (a thread's parent)."""
        payload = (self.metadata or {}).get("event_payload", {})
        return not payload.get("part") and not payload.get("continued")


@dataclass
class Uploaded:
    """A file uploaded with files_upload_v2 and shared (completed) into a channel."""

    file_id: str
    filename: str
    length: int
    alt_txt: str | None = None
    content: bytes = b""
    title: str | None = None
    channel: str | None = None
    thread_ts: str | None = None
    ts: str = ""  # the file share message's, once shared

    def as_message(self) -> dict[str, Any]:
        """The file share message, as the channel's history lists it."""
        shared = {"id": self.file_id, "name": self.filename, "title": self.title}
        return {
            "type": "message",
            "user": BOT_USER,
            "bot_id": BOT_ID,
            "text": "",
            "ts": self.ts,
            "files": [shared],
        }


@dataclass
class FakeSlack:
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    messages: list[Posted] = field(default_factory=list)
    ephemerals: list[dict[str, Any]] = field(default_factory=list)
    reactions: list[tuple[str, str, str]] = field(default_factory=list)  # channel, ts, name
    responses: list[dict[str, Any]] = field(default_factory=list)  # posts to response_url
    views: list[dict[str, Any]] = field(default_factory=list)  # modals opened (views.open)
    # Home tab views published (views.publish), per user, in order; an image block's
    # slack_file must be a file shared into the user's IM with the bot (D<user>), as a
    # file of the bot's alone is refused (invalid_blocks)
    home_views: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    group_dms: dict[str, list[str]] = field(default_factory=dict)  # group DM id: members
    calls: list[str] = field(default_factory=list)
    peers: list[object] = field(default_factory=list)  # the client address of each call
    # OAuth: codes the "user" got from Slack's consent page, and the bot tokens they became
    client_id: str = "1111.2222"
    client_secret: str = "fake-client-secret"
    oauth_codes: dict[str, tuple[str, str]] = field(default_factory=dict)  # code: team, name
    workspace_tokens: dict[str, str] = field(default_factory=dict)  # bot token: team
    calls_by: list[tuple[str, str]] = field(default_factory=list)  # method, token's team
    # Tokens Slack refuses with an error code of its own (see refuse), and each call it
    # refused that way: method, token
    refused_tokens: dict[str, str] = field(default_factory=dict)
    refusals: list[tuple[str, str]] = field(default_factory=list)
    _caller: str = TEAM  # the workspace of the call being answered
    # knobs: the next N calls of a method answer 429; a channel answers an error code
    rate_limited: dict[str, int] = field(default_factory=dict)
    retry_after: int = 0
    failing_calls: dict[str, set[int]] = field(default_factory=dict)  # nth calls: internal_error
    channel_errors: dict[str, str] = field(default_factory=dict)
    custom_emoji: dict[str, str] = field(default_factory=dict)  # name: image URL or alias:name
    ts_base: float = 1764000000  # the n-th message gets ts "<ts_base + n>.<n>"
    # Slack's posting limits, when set: chat.postMessage at most once per channel in
    # channel_interval seconds and workspace_limit times in any second; beyond: 429.
    channel_interval: float | None = None
    workspace_limit: int | None = None
    throttled: int = 0  # posts answered 429 by those limits
    # Slack answers msg_blocks_too_long to a message whose blocks hold more text than this
    # (every text of every block, as sent); each refusal is kept (method, text length)
    block_text_limit: int | None = 12_000
    too_long: list[tuple[str, int]] = field(default_factory=list)
    _recent_posts: deque[float] = field(default_factory=deque)
    _last_post: dict[str, float] = field(default_factory=dict)
    # files_upload_v2: files.getUploadURLExternal, a POST of the bytes to the URL it gave,
    # then files.completeUploadExternal; upload_error refuses the first step with that code
    uploads: list[Uploaded] = field(default_factory=list)
    upload_error: str | None = None
    _pending_uploads: dict[str, Uploaded] = field(default_factory=dict)
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _runner: web.AppRunner | None = None
    url: str = ""
    # Socket Mode: the connected WebSocket and the acks it sent back, by envelope id
    socket: web.WebSocketResponse | None = None
    socket_connected: asyncio.Event = field(default_factory=asyncio.Event)
    acks: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    # ---- life cycle

    async def start(self) -> str:
        application = web.Application()
        application.router.add_route("*", "/api/{method}", self._api)
        application.router.add_post("/response/{id}", self._response_url)
        application.router.add_post("/upload/{id}", self._upload)
        application.router.add_get("/link", self._socket_mode)
        runner = web.AppRunner(application, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        self._runner = runner
        host, port = runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self.url

    async def stop(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    # ---- views for assertions

    def posts(self, channel: str | None = None, *, thread: str | None = None) -> list[Posted]:
        return [
            m
            for m in self.messages
            if (channel is None or m.channel == channel) and m.thread_ts == thread
        ]

    def chatter(self, channel: str, count: int, *, thread: str | None = None) -> None:
        """``count`` more messages without a key (other talk in the channel or thread)."""
        for n in range(count):
            self._chat_postMessage(
                {"channel": channel, "text": f"chatter {n}", "thread_ts": thread}
            )

    def with_key(self, key: str) -> list[Posted]:
        return [m for m in self.messages if m.key == key]

    def count(self, method: str) -> int:
        return self.calls.count(method)

    def teams_of(self, method: str) -> list[str]:
        """The workspace of the token each call of ``method`` was made with, in order."""
        return [team for called, team in self.calls_by if called == method]

    # ---- the API

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        self.calls.append(method)
        if request.transport is not None:
            self.peers.append(request.transport.get_extra_info("peername"))
        authorization = request.headers.get("Authorization", "")
        token = authorization.removeprefix("Bearer ")
        params = await _params(request)
        if method == "oauth.v2.access":
            return _ok(self._oauth_v2_access(authorization, params))
        if token in self.refused_tokens:
            self.refusals.append((method, token))
            return _ok({"ok": False, "error": self.refused_tokens[token]})
        expected = APP_TOKEN if method == "apps.connections.open" else BOT_TOKEN
        if token != expected and token not in self.workspace_tokens:
            return _ok({"ok": False, "error": "invalid_auth"})
        self._caller = self.workspace_tokens.get(token, TEAM)
        self.calls_by.append((method, self._caller))
        if self.rate_limited.get(method, 0) > 0:
            self.rate_limited[method] -= 1
            return web.json_response(
                {"ok": False, "error": "ratelimited"},
                status=429,
                headers={"Retry-After": str(self.retry_after)},
            )
        if self.calls.count(method) in self.failing_calls.get(method, set()):
            return _ok({"ok": False, "error": "internal_error"})
        channel = str(params.get("channel", ""))
        if method == "chat.postMessage" and self._over_post_limits(channel):
            self.throttled += 1
            return web.json_response(
                {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "1"}
            )
        if channel in self.channel_errors:
            return _ok({"ok": False, "error": self.channel_errors[channel]})
        handler = getattr(self, "_" + method.replace(".", "_"), None)
        if handler is None:
            return _ok({"ok": False, "error": "unknown_method"})
        if method in ("chat.postMessage", "chat.postEphemeral") and self._too_long(method, params):
            return _ok({"ok": False, "error": "msg_blocks_too_long"})
        return _ok(handler(params))

    def _too_long(self, method: str, params: Mapping[str, Any]) -> bool:
        length = text_in_blocks(_json(params.get("blocks")) or [])
        if self.block_text_limit is None or length <= self.block_text_limit:
            return False
        self.too_long.append((method, length))
        return True

    def _over_post_limits(self, channel: str) -> bool:
        now = time.monotonic()
        while self._recent_posts and self._recent_posts[0] <= now - 1.0:
            self._recent_posts.popleft()
        if self.workspace_limit is not None and len(self._recent_posts) >= self.workspace_limit:
            return True
        last = self._last_post.get(channel)
        if self.channel_interval is not None and last is not None:
            too_soon = now - last < self.channel_interval
            if too_soon:
                return True
        self._recent_posts.append(now)
        self._last_post[channel] = now
        return False

    def _auth_test(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": True, "team_id": self._caller, "user_id": BOT_USER, "bot_id": BOT_ID}

    def grant(self, code: str, team: str, name: str) -> None:
        """A member of ``team`` approved the install: Slack redirects with ``code``."""
        self.oauth_codes[code] = (team, name)

    def revoke(self, team: str) -> None:
        """The workspace's tokens stop working (uninstall, revocation)."""
        for token in [t for t, owner in self.workspace_tokens.items() if owner == team]:
            del self.workspace_tokens[token]

    def refuse(self, team: str, error: str = "invalid_auth") -> None:
        """The workspace's tokens are answered ``error`` from now on (a deactivated bot
        user is ``account_inactive``; a revoked token ``token_revoked``)."""
        for token in [t for t, owner in self.workspace_tokens.items() if owner == team]:
            del self.workspace_tokens[token]
            self.refused_tokens[token] = error

    def _oauth_v2_access(self, authorization: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """Exchange a code for the workspace's bot token (client credentials as HTTP
        basic auth, as slack_sdk sends them, or as parameters)."""
        expected = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        by_params = (params.get("client_id"), params.get("client_secret")) == (
            self.client_id,
            self.client_secret,
        )
        if authorization != f"Basic {expected}" and not by_params:
            return {"ok": False, "error": "invalid_client_id"}
        granted = self.oauth_codes.pop(str(params.get("code", "")), None)
        if granted is None:
            return {"ok": False, "error": "invalid_code"}
        team, name = granted
        token = f"xoxb-{team}-{secrets.token_hex(8)}"
        self.workspace_tokens[token] = team
        return {
            "ok": True,
            "app_id": "A0QUIZ",
            "access_token": token,
            "token_type": "bot",
            "scope": "chat:write,commands,reactions:read,reactions:write",
            "bot_user_id": BOT_USER,
            "team": {"id": team, "name": name},
            "enterprise": None,
            "is_enterprise_install": False,
            "authed_user": {"id": "U0INSTALLER"},
        }

    def _apps_connections_open(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": self.url.replace("http://", "ws://") + "/link"}

    async def _socket_mode(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.socket = socket
        await socket.send_json({"type": "hello", "num_connections": 1})
        self.socket_connected.set()
        async for frame in socket:
            message = json.loads(frame.data)
            waiter = self.acks.get(message.get("envelope_id", ""))
            if waiter is not None and not waiter.done():
                waiter.set_result(message)
        return socket

    async def push(self, envelope: dict[str, Any], *, wait_seconds: float = 5) -> dict[str, Any]:
        """Send a Socket Mode envelope and wait for the app's acknowledgement."""
        assert self.socket is not None, "no Socket Mode connection"
        waiter = asyncio.get_running_loop().create_future()
        self.acks[envelope["envelope_id"]] = waiter
        await self.socket.send_json(envelope)
        return await asyncio.wait_for(waiter, timeout=wait_seconds)

    def _chat_postMessage(self, params: Mapping[str, Any]) -> dict[str, Any]:
        n = next(self._ts)
        posted = Posted(
            channel=str(params["channel"]),
            ts=f"{int(self.ts_base) + n}.{n:06d}",
            text=str(params.get("text", "")),
            blocks=_json(params.get("blocks")) or [],
            thread_ts=params.get("thread_ts"),
            metadata=_json(params.get("metadata")),
        )
        self.messages.append(posted)
        return {"ok": True, "channel": posted.channel, "ts": posted.ts}

    def _conversations_open(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Each member's IM with the bot is ``D<member>``; the group DM of several members
        and the bot is ``G`` and their ids, the same for the same members (``group_dms``
        keeps who is in each)."""
        users = str(params["users"]).split(",")
        if len(users) == 1:
            return {"ok": True, "channel": {"id": f"D{users[0]}"}}
        group = "G" + "".join(sorted(users))
        self.group_dms[group] = sorted(users)
        return {"ok": True, "channel": {"id": group}}

    def _chat_getPermalink(self, params: Mapping[str, Any]) -> dict[str, Any]:
        ts = str(params["message_ts"]).replace(".", "")
        return {
            "ok": True,
            "permalink": f"https://fake.slack.test/archives/{params['channel']}/p{ts}",
        }

    def _files_getUploadURLExternal(self, params: Mapping[str, Any]) -> dict[str, Any]:
        if self.upload_error is not None:
            return {"ok": False, "error": self.upload_error}
        file_id = f"F{next(self._ts):08d}"
        self._pending_uploads[file_id] = Uploaded(
            file_id=file_id,
            filename=str(params["filename"]),
            length=int(params["length"]),
            alt_txt=params.get("alt_txt"),
        )
        return {"ok": True, "file_id": file_id, "upload_url": f"{self.url}/upload/{file_id}"}

    async def _upload(self, request: web.Request) -> web.Response:
        upload = self._pending_uploads.get(request.match_info["id"])
        if upload is None:
            return web.Response(status=404, text="unknown upload")
        upload.content = await request.read()
        return web.Response(text="OK - " + str(len(upload.content)))

    def _files_completeUploadExternal(self, params: Mapping[str, Any]) -> dict[str, Any]:
        completed = []
        for item in _json(params["files"]):
            upload = self._pending_uploads.pop(item["id"], None)
            if upload is None or len(upload.content) != upload.length:
                return {"ok": False, "error": "file_not_found"}
            upload.title = item.get("title")
            upload.channel = params.get("channel_id")
            upload.thread_ts = params.get("thread_ts")
            n = next(self._ts)
            upload.ts = f"{int(self.ts_base) + n}.{n:06d}"
            self.uploads.append(upload)
            completed.append({"id": upload.file_id, "title": upload.title})
        return {"ok": True, "files": completed}

    def _chat_postEphemeral(self, params: Mapping[str, Any]) -> dict[str, Any]:
        self.ephemerals.append(
            {
                "channel": params["channel"],
                "user": params["user"],
                "text": params.get("text", ""),
                "blocks": _json(params.get("blocks")) or [],
            }
        )
        return {"ok": True, "message_ts": f"{1764000000}.{len(self.ephemerals):06d}"}

    def _views_open(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A modal opens only with a trigger id (Slack: one of the last 3 seconds)."""
        if not str(params.get("trigger_id", "")).startswith("trigger."):
            return {"ok": False, "error": "invalid_trigger_id"}
        view = dict(_json(params["view"]))
        view["id"] = f"V{len(self.views) + 1:08d}"
        self.views.append(view)
        return {"ok": True, "view": view}

    def _views_publish(self, params: Mapping[str, Any]) -> dict[str, Any]:
        view = dict(_json(params["view"]))
        user = str(params["user_id"])
        if view.get("type") != "home":
            return {"ok": False, "error": "invalid_arguments"}
        for block in view.get("blocks", []):
            shown = block.get("slack_file") if block.get("type") == "image" else None
            if shown is None:
                continue
            if "url" in shown or not any(
                u.file_id == shown.get("id") and u.channel == f"D{user}" for u in self.uploads
            ):
                return {"ok": False, "error": "invalid_blocks"}
        self.home_views.setdefault(user, []).append(view)
        return {"ok": True, "view": {**view, "id": f"VH{len(self.home_views[user])}"}}

    def _reactions_add(self, params: Mapping[str, Any]) -> dict[str, Any]:
        name = str(params["name"])
        if not re.fullmatch(r"[a-z0-9_+'-]+(::skin-tone-[2-6])?", name):
            return {"ok": False, "error": "invalid_name"}  # Slack takes names, never "🦄"
        reaction = (str(params["channel"]), str(params["timestamp"]), name)
        if reaction in self.reactions:
            return {"ok": False, "error": "already_reacted"}
        self.reactions.append(reaction)
        return {"ok": True}

    def _conversations_history(self, params: Mapping[str, Any]) -> dict[str, Any]:
        channel = str(params["channel"])
        oldest = float(params.get("oldest") or 0)
        top: list[Posted | Uploaded] = [
            m
            for m in self.messages
            if m.channel == channel and m.thread_ts is None and float(m.ts) > oldest
        ]
        top += [  # a file shared into the channel has a message of its own there
            u
            for u in self.uploads
            if u.channel == channel and u.thread_ts is None and float(u.ts) > oldest
        ]
        newest_first = sorted(top, key=lambda m: float(m.ts), reverse=True)
        start = int(params.get("cursor") or 0)
        limit = int(params.get("limit") or 100)
        page = newest_first[start : start + limit]
        metadata = str(params.get("include_all_metadata")) in TRUE_VALUES
        messages = []
        for posted in page:
            if isinstance(posted, Uploaded):
                messages.append(posted.as_message())
                continue
            message = posted.as_message(with_metadata=metadata)
            replies = self.posts(channel, thread=posted.ts)
            if replies:
                message["thread_ts"] = posted.ts
                message["reply_count"] = len(replies)
            messages.append(message)
        more = start + limit < len(newest_first)
        return {
            "ok": True,
            "messages": messages,
            "has_more": more,
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    def _conversations_replies(self, params: Mapping[str, Any]) -> dict[str, Any]:
        channel, parent = str(params["channel"]), str(params["ts"])
        metadata = str(params.get("include_all_metadata")) in TRUE_VALUES
        thread = [m for m in self.messages if m.channel == channel and m.ts == parent]
        thread += self.posts(channel, thread=parent)
        start = int(params.get("cursor") or 0)
        limit = int(params.get("limit") or 100)
        page = thread[start : start + limit]  # oldest first, the parent on every page
        if start and thread:
            page = [thread[0], *page]
        more = start + limit < len(thread)
        return {
            "ok": True,
            "messages": [m.as_message(with_metadata=metadata) for m in page],
            "has_more": more,
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    def _emoji_list(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": True, "emoji": dict(self.custom_emoji)}

    def _users_info(self, params: Mapping[str, Any]) -> dict[str, Any]:
        user = str(params["user"])
        profile = self.users.get(user, {})
        return {
            "ok": True,
            "user": {
                "id": user,
                "name": user.lower(),
                "is_admin": bool(profile.get("is_admin")),
                "is_owner": bool(profile.get("is_owner")),
                "profile": {"display_name": profile.get("name", f"Member {user}")},
            },
        }

    async def _response_url(self, request: web.Request) -> web.Response:
        self.responses.append(await request.json())
        return web.Response(text="ok")


def _ok(body: dict[str, Any]) -> web.Response:
    return web.json_response(body)


async def _params(request: web.Request) -> dict[str, Any]:
    params: dict[str, Any] = dict(request.query)
    if request.method == "POST":
        if request.content_type == "application/json":
            params.update(await request.json())
        else:
            params.update(dict(await request.post()))
    return params


def text_in_blocks(value: Any) -> int:
    """All the text in blocks: every string under a ``text`` key, however deep."""
    if isinstance(value, list):
        return sum(text_in_blocks(item) for item in value)
    if not isinstance(value, dict):
        return 0
    return sum(
        len(item) if key == "text" and isinstance(item, str) else text_in_blocks(item)
        for key, item in value.items()
    )


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
