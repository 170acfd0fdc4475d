"""A local fake of the Discord REST API and gateway, for tests (127.0.0.1, port 0).

It implements just what the quiz adapter uses, the way Discord documents it:
JSON replies with exactly ``Content-Type: application/json`` (discord.py
compares the header literally), ``enforce_nonce`` (a message create repeating
a nonce of the same author in the same channel returns the first message),
newest-first history with ``before``/``after``/``limit``, 429s with
``retry_after`` and the ``Via`` header discord.py expects from Discord's edge,
interaction callbacks answering an ``InteractionCallback`` body, and a gateway
websocket (HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RECONNECT, RESUME with
the replay of what the session missed).

Rate limits, off unless asked for: ``global_limit`` requests in any rolling
second across the bot (interaction callbacks and follow-ups exempt, as on
Discord) and ``channel_message_limit`` message creates per channel per
``bucket_seconds``, answered with the ``X-RateLimit-*`` headers discord.py
uses to pace a route before it sends; past either limit the answer is 429.
``latency`` (seconds, 0 by default) delays each REST answer, as Discord's round trip.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, WSMsgType, web

Json = dict[str, Any]
API = "/api/v10"
APPLICATION_ID = 700000000000000001
BOT_ID = APPLICATION_ID
GUILD_ID = 710000000000000001
CHANNEL_ID = 720000000000000001
EVERYONE_PERMISSIONS = 0x400 | 0x800 | 0x40 | 0x10000  # view, send, react, history
MANAGE_GUILD = 0x20
ADMINISTRATOR = 0x8


def _now() -> str:
    return datetime.now(UTC).isoformat()


def user_json(user_id: int, name: str, *, bot: bool = False) -> Json:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


@dataclass
class Failure:
    method: str
    pattern: re.Pattern[str]
    status: int
    body: Json
    headers: dict[str, str]
    times: int
    after_effect: bool = False  # perform the request, then drop the response


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    at: float = field(default_factory=time.monotonic)
    status: int = 0
    files: list[Upload] = field(default_factory=list)


@dataclass
class Upload:
    """A file sent with a message (multipart ``files[n]``)."""

    filename: str
    content: bytes


async def _multipart(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload and the files of a multipart message request."""
    body: Any = None
    files: list[Upload] = []
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            body = json.loads(await part.text())
        else:
            files.append(Upload(part.filename or "", bytes(await part.read())))
    return body, files


@dataclass
class FakeDiscord:
    guild_id: int = GUILD_ID
    channel_id: int = CHANNEL_ID
    bot_id: int = BOT_ID
    requests: list[Recorded] = field(default_factory=list)
    messages: dict[int, dict[int, Json]] = field(default_factory=dict)
    reactions: dict[tuple[int, str], list[int]] = field(default_factory=dict)
    channels: dict[int, Json] = field(default_factory=dict)
    thread_members: dict[int, list[int]] = field(default_factory=dict)  # private threads
    users: dict[int, Json] = field(default_factory=dict)
    member_permissions: dict[int, int] = field(default_factory=dict)
    interaction_replies: list[Json] = field(default_factory=list)
    uploads: list[Upload] = field(default_factory=list)  # every file sent with a message
    synced_commands: list[tuple[str, list[Json]]] = field(default_factory=list)
    forget_nonces: bool = False
    _nonces: dict[tuple[int, int, str], int] = field(default_factory=dict)
    _failures: list[Failure] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(800000000000000001))
    _sequence: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _sockets: list[web.WebSocketResponse] = field(default_factory=list)
    global_limit: int | None = None
    channel_message_limit: int | None = None
    bucket_seconds: float = 5.0
    rate_limited: int = 0  # requests answered 429 by the limits above
    latency: float = 0.0  # seconds before each answer within the limits (counted on arrival)
    _recent: deque[float] = field(default_factory=deque)
    _buckets: dict[int, deque[float]] = field(default_factory=dict)
    identified: int = 0
    identified_shards: list[tuple[int, int]] = field(default_factory=list)  # (id, count)
    _socket_shards: dict[int, int] = field(default_factory=dict)  # id(socket): shard id
    resumed: int = 0
    _missed: list[tuple[str, Json]] = field(default_factory=list)  # replayed on RESUME
    close_on_identify: int | None = None  # e.g. 4004 (bad token), 4014 (disallowed intents)
    base_url: str = ""
    gateway_url: str = ""
    _runner: web.AppRunner | None = None

    def __post_init__(self) -> None:
        self.users[self.bot_id] = user_json(self.bot_id, "quizbot", bot=True)
        self.add_channel(self.channel_id, "quiz")

    # set-up

    def next_id(self) -> int:
        return next(self._ids)

    def add_channel(self, channel_id: int, name: str) -> Json:
        channel = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        self.channels[channel_id] = channel
        self.messages.setdefault(channel_id, {})
        return channel

    def add_member(
        self, user_id: int, name: str, *, permissions: int = 0, bot: bool = False
    ) -> Json:
        self.users[user_id] = user_json(user_id, name, bot=bot)
        self.member_permissions[user_id] = permissions
        return self.member_json(user_id)

    def member_json(self, user_id: int) -> Json:
        roles = [str(self.guild_id + user_id)] if self.member_permissions.get(user_id) else []
        return {
            "user": self.users[user_id],
            "nick": None,
            "roles": roles,
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }

    def roles_json(self) -> list[Json]:
        roles = [self._role(self.guild_id, "@everyone", EVERYONE_PERMISSIONS)]
        for user_id, permissions in self.member_permissions.items():
            if permissions:
                roles.append(self._role(self.guild_id + user_id, f"role-{user_id}", permissions))
        return roles

    @staticmethod
    def _role(role_id: int, name: str, permissions: int) -> Json:
        return {
            "id": str(role_id),
            "name": name,
            "permissions": str(permissions),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def guild_json(self) -> Json:
        return {
            "id": str(self.guild_id),
            "name": "Quiz Guild",
            "icon": None,
            "owner_id": "1",
            "unavailable": False,
            "member_count": len(self.users),
            "large": False,
            "roles": self.roles_json(),
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [c for c in self.channels.values() if c["type"] == 11],
            "members": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
        }

    def fail_next(
        self,
        method: str,
        path: str,
        status: int,
        body: Json | None = None,
        *,
        headers: dict[str, str] | None = None,
        times: int = 1,
        after_effect: bool = False,
    ) -> None:
        """Answer the next ``times`` requests matching ``path`` (a regex) with ``status``;
        with ``after_effect`` the request is performed and then its connection dropped."""
        self._failures.append(
            Failure(
                method,
                re.compile(path),
                status,
                body or {},
                headers or {},
                times,
                after_effect,
            )
        )

    def rate_limit_next(self, method: str, path: str, retry_after: float, times: int = 1) -> None:
        self.fail_next(
            method,
            path,
            429,
            {"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
            headers={"Via": "1.1 google", "Retry-After": str(retry_after)},
            times=times,
        )

    # observations

    def channel_messages(self, channel_id: int | None = None) -> list[Json]:
        channel = self.messages.get(channel_id or self.channel_id, {})
        return [channel[i] for i in sorted(channel)]

    def requests_to(self, method: str, pattern: str) -> list[Recorded]:
        regex = re.compile(pattern)
        return [r for r in self.requests if r.method == method and regex.fullmatch(r.path)]

    # member actions (state changes the gateway would report)

    def add_message(self, channel_id: int, author_id: int, content: str, **extra: Any) -> Json:
        message_id = self.next_id()
        message = self._message_json(channel_id, message_id, self.users[author_id], content)
        message.update(extra)
        self.messages.setdefault(channel_id, {})[message_id] = message
        return message

    def add_reaction(self, channel_id: int, message_id: int, emoji: str, user_id: int) -> None:
        users = self.reactions.setdefault((message_id, emoji), [])
        if user_id not in users:
            users.append(user_id)
        del channel_id

    def _message_json(self, channel_id: int, message_id: int, author: Json, content: str) -> Json:
        channel = self.channels.get(channel_id, {})
        message: Json = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": author,
            "content": content,
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }
        if channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        return message

    def _with_reactions(self, message: Json) -> Json:
        reactions = []
        for (message_id, emoji), users in self.reactions.items():
            if str(message_id) == message["id"] and users:
                reactions.append(
                    {
                        "emoji": {"id": None, "name": emoji},
                        "count": len(users),
                        "count_details": {"normal": len(users), "burst": 0},
                        "me": self.bot_id in users,
                        "me_burst": False,
                        "burst_colors": [],
                    }
                )
        return {**message, "reactions": reactions} if reactions else message

    # server

    async def start(self) -> str:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        app.router.add_get("/gateway", self._gateway)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}{API}"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        return self.base_url

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        return await handler(request)

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        return web.Response(
            body=json.dumps(data).encode("utf-8"),
            status=status,
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"code": code, "message": message}, status)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + unquote(request.match_info["tail"])
        body: Any = None
        files: list[Upload] = []
        if request.content_type == "multipart/form-data":  # a message with attachments
            body, files = await _multipart(request)
        elif request.can_read_body:
            text = await request.text()
            body = json.loads(text) if text else None
        recorded = Recorded(request.method, path, dict(request.query), body, files=files)
        self.requests.append(recorded)
        bucket_headers: dict[str, str] = {}
        limited = self._over_global_limit(path)
        if limited is None:
            bucket_headers, limited = self._route_bucket(request.method, path)
        if limited is not None:
            recorded.status = limited.status
            return limited
        if self.latency:
            await asyncio.sleep(self.latency)
        drop_after = False
        for failure in self._failures:
            if failure.method == request.method and failure.pattern.fullmatch(path):
                failure.times -= 1
                if failure.times <= 0:
                    self._failures.remove(failure)
                if failure.after_effect:
                    drop_after = True
                    break
                recorded.status = failure.status
                return self._json(failure.body, failure.status, failure.headers)
        if files and isinstance(body, dict):
            body["_files"] = files  # the message keeps them as its attachments
        response = await self._route(request.method, path, request.query, body)
        response.headers.update(bucket_headers)
        recorded.status = response.status
        if drop_after:
            # The request took effect but its answer never arrives (a crash, a cut link).
            if request.transport is not None:
                request.transport.close()
            raise web.HTTPInternalServerError()
        return response

    def _too_many(self, retry_after: float, *, scope: str) -> web.Response:
        self.rate_limited += 1
        headers = {"Via": "1.1 google", "Retry-After": f"{retry_after:.3f}"}
        headers["X-RateLimit-Scope"] = scope
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": scope == "global",
        }
        return self._json(body, 429, headers)

    def _over_global_limit(self, path: str) -> web.Response | None:
        if self.global_limit is None or path.startswith(("/interactions/", "/webhooks/")):
            return None
        now = time.monotonic()
        while self._recent and now - self._recent[0] >= 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.global_limit:
            return self._too_many(1.0 - (now - self._recent[0]), scope="global")
        self._recent.append(now)
        return None

    def _route_bucket(self, method: str, path: str) -> tuple[dict[str, str], web.Response | None]:
        match = re.fullmatch(r"/channels/(\d+)/messages", path)
        if self.channel_message_limit is None or method != "POST" or match is None:
            return {}, None
        now = time.monotonic()
        sent = self._buckets.setdefault(int(match[1]), deque())
        while sent and now - sent[0] >= self.bucket_seconds:
            sent.popleft()
        reset_after = self.bucket_seconds - (now - sent[0]) if sent else self.bucket_seconds
        if len(sent) >= self.channel_message_limit:
            return {}, self._too_many(reset_after, scope="user")
        sent.append(now)
        headers = {
            "X-RateLimit-Bucket": "channel-messages",
            "X-RateLimit-Limit": str(self.channel_message_limit),
            "X-RateLimit-Remaining": str(self.channel_message_limit - len(sent)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }
        return headers, None

    async def _route(self, method: str, path: str, query: Any, body: Any) -> web.StreamResponse:
        parts = path.strip("/").split("/")
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return self._json(self.users[self.bot_id])
            case ("GET", ["users", user]) if user.isdigit():  # fetch_user: a DM to a member
                if int(user) not in self.users:
                    return self._error(404, 10013, "Unknown User")
                return self._json(self.users[int(user)])
            case ("GET", ["oauth2", "applications", "@me"]):
                return self._json(self._application())
            case ("GET", ["gateway", "bot"]):
                return self._json(
                    {
                        "url": self.gateway_url,
                        "shards": 1,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 999,
                            "reset_after": 0,
                            "max_concurrency": 1,
                        },
                    }
                )
            case ("PUT", ["applications", _, "commands"]):
                return self._json(self._sync("global", body))
            case ("PUT", ["applications", _, "guilds", guild, "commands"]):
                return self._json(self._sync(f"guild:{guild}", body))
            case ("GET", ["channels", channel]):
                found = self.channels.get(int(channel))
                if found is None:
                    return self._error(404, 10003, "Unknown Channel")
                return self._json(found)
            case ("POST", ["channels", channel, "messages"]):
                return self._create_message(int(channel), body)
            case ("GET", ["channels", channel, "messages"]):
                return self._history(int(channel), query)
            case ("GET", ["channels", channel, "messages", message]):
                found = self.messages.get(int(channel), {}).get(int(message))
                if found is None:
                    return self._error(404, 10008, "Unknown Message")
                return self._json(self._with_reactions(found))
            case ("POST", ["channels", channel, "messages", message, "threads"]):
                return self._create_thread(int(channel), int(message), body)
            case ("POST", ["channels", channel, "threads"]):
                return self._create_private_thread(int(channel), body)
            case ("PUT", ["channels", thread, "thread-members", user]):
                if int(thread) not in self.channels:
                    return self._error(404, 10003, "Unknown Channel")
                self.thread_members.setdefault(int(thread), []).append(int(user))
                return web.Response(status=204)
            case ("PUT", ["channels", channel, "messages", message, "reactions", emoji, "@me"]):
                if int(channel) not in self.channels:
                    return self._error(404, 10003, "Unknown Channel")
                self.add_reaction(int(channel), int(message), emoji, self.bot_id)
                return web.Response(status=204)
            case ("GET", ["channels", channel, "messages", message, "reactions", emoji]):
                after = int(query.get("after", 0))
                limit = int(query.get("limit", 25))
                reacted = self.reactions.get((int(message), emoji), [])
                users = sorted(u for u in reacted if u > after)
                return self._json([self.users[u] for u in users[:limit]])
            case ("GET", ["guilds", _, "threads", "active"]):
                threads = [
                    c
                    for c in self.channels.values()
                    if c["type"] in (11, 12) and not c["thread_metadata"]["archived"]
                ]
                return self._json({"threads": threads, "members": []})
            case ("GET", ["guilds", guild]):
                return self._json({**self.guild_json(), "id": guild})
            case ("GET", ["guilds", _, "members", user]):
                if int(user) not in self.users:
                    return self._error(404, 10007, "Unknown Member")
                return self._json(self.member_json(int(user)))
            case ("POST", ["interactions", interaction, _, "callback"]):
                return self._interaction_callback(int(interaction), body)
            case ("POST", ["webhooks", _, token]):
                return self._followup(token, body)
            case ("PATCH", ["webhooks", _, token, "messages", "@original"]):
                return self._followup(token, body)
            case ("DELETE", ["webhooks", _, token, "messages", "@original"]):
                self.interaction_replies.append({"token": token, "deleted": True})
                return web.Response(status=204)
            case ("POST", ["users", "@me", "channels"]):
                return self._json(self._direct_channel(int(body["recipient_id"])))
        return self._error(404, 0, f"fake Discord has no route {method} {path}")

    def _direct_channel(self, recipient: int) -> Json:
        """The bot's DM channel with ``recipient``: one per user, opened again as it is."""
        for channel in self.channels.values():
            if channel["type"] == 1 and channel["recipients"] == [self.users[recipient]]:
                return channel
        dm_id = self.next_id()
        self.channels[dm_id] = {"id": str(dm_id), "type": 1, "recipients": [self.users[recipient]]}
        self.messages[dm_id] = {}
        return self.channels[dm_id]

    def _application(self) -> Json:
        return {
            "id": str(APPLICATION_ID),
            "name": "quizbot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_json(1, "owner"),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
        }

    def _sync(self, target: str, body: list[Json]) -> list[Json]:
        self.synced_commands.append((target, body))
        return [
            {
                **command,
                "id": str(self.next_id()),
                "application_id": str(APPLICATION_ID),
                "version": "1",
                "default_member_permissions": command.get("default_member_permissions"),
            }
            for command in body
        ]

    def _create_message(self, channel_id: int, body: Json) -> web.Response:
        channel = self.channels.get(channel_id)
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        if channel.get("forbidden"):
            return self._error(403, 50013, "Missing Permissions")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce") and not self.forget_nonces:
            seen = self._nonces.get((channel_id, self.bot_id, str(nonce)))
            if seen is not None and seen in self.messages[channel_id]:
                return self._json(self.messages[channel_id][seen])
        message_id = self.next_id()
        message = self._message_json(channel_id, message_id, self.users[self.bot_id], "")
        message["content"] = body.get("content") or ""
        message["embeds"] = body.get("embeds") or []
        message["components"] = body.get("components") or []
        uploads: list[Upload] = body.pop("_files", [])
        message["attachments"] = [
            {
                "id": self.next_id(),
                "filename": upload.filename,
                "size": len(upload.content),
                "url": f"{self.base_url}/attachments/{upload.filename}",
                "proxy_url": f"{self.base_url}/attachments/{upload.filename}",
                "description": described.get("description"),
            }
            for upload, described in zip(
                uploads, body.get("attachments") or [{}] * len(uploads), strict=False
            )
        ]
        self.uploads.extend(uploads)
        if nonce is not None:
            message["nonce"] = nonce
            self._nonces[(channel_id, self.bot_id, str(nonce))] = message_id
        self.messages[channel_id][message_id] = message
        return self._json(message)

    def _history(self, channel_id: int, query: Any) -> web.Response:
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        limit = min(int(query.get("limit", 50)), 100)
        ids = sorted(self.messages.get(channel_id, {}))
        if "after" in query:
            chosen = [i for i in ids if i > int(query["after"])][:limit]
        else:
            before = int(query["before"]) if "before" in query else None
            chosen = [i for i in ids if before is None or i < before][-limit:]
        channel = self.messages[channel_id]
        return self._json([self._with_reactions(channel[i]) for i in reversed(chosen)])

    def _create_thread(self, channel_id: int, message_id: int, body: Json) -> web.Response:
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        if message_id in self.channels:
            return self._error(400, 160004, "A thread has already been created for this message")
        thread = self._thread_json(message_id, channel_id, body, 11)
        self.channels[message_id] = thread
        self.messages[message_id] = {}
        return self._json(thread)

    def _thread_json(self, thread_id: int, channel_id: int, body: Json, kind: int) -> Json:
        """A thread of ``channel_id`` as Discord answers its creation (``kind`` 11 public,
        12 private)."""
        return {
            "id": str(thread_id),
            "type": kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(channel_id),
            "name": body["name"],
            "owner_id": str(self.bot_id),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
            },
        }

    def _create_private_thread(self, channel_id: int, body: Json) -> web.Response:
        """A thread started from no message (``type`` 12: private, members added one by
        one; ``thread_members`` keeps them)."""
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        thread_id = self.next_id()
        thread = self._thread_json(thread_id, channel_id, body, int(body.get("type", 11)))
        thread["thread_metadata"]["invitable"] = bool(body.get("invitable", True))
        self.channels[thread_id] = thread
        self.messages[thread_id] = {}
        return self._json(thread)

    def _interaction_callback(self, interaction_id: int, body: Json) -> web.Response:
        self.interaction_replies.append({"interaction": interaction_id, **body})
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags", 0)) & 64)
        return self._json(
            {
                "interaction": {
                    "id": str(interaction_id),
                    "type": 2,
                    "response_message_loading": body["type"] == 5,
                    "response_message_ephemeral": ephemeral,
                },
            }
        )

    def modals(self) -> list[Json]:
        """The modals the bot opened (interaction responses of type 9), oldest first."""
        return [r["data"] for r in self.interaction_replies if r.get("type") == 9]

    def _followup(self, token: str, body: Json) -> web.Response:
        self.uploads.extend((body or {}).pop("_files", []))
        self.interaction_replies.append({"token": token, **(body or {})})
        message = self._message_json(self.channel_id, self.next_id(), self.users[self.bot_id], "")
        message["embeds"] = (body or {}).get("embeds") or []
        message["webhook_id"] = str(APPLICATION_ID)
        return self._json(message)

    # gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        try:
            async for frame in socket:
                if frame.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(frame.data)
                if payload["op"] == 1:
                    await socket.send_str(json.dumps({"op": 11}))
                elif payload["op"] == 2:
                    self.identified += 1
                    shard_id, shard_count = payload["d"].get("shard") or (0, 1)
                    self.identified_shards.append((shard_id, shard_count))
                    self._socket_shards[id(socket)] = shard_id
                    if self.close_on_identify is not None:
                        await socket.close(code=self.close_on_identify)
                        break
                    await self._send_ready(socket, shard_id, shard_count)
                elif payload["op"] == 6:
                    self.resumed += 1
                    missed, self._missed = self._missed, []
                    for event, data in missed:  # Discord replays them before RESUMED
                        await self._send(socket, event, data)
                    await self.dispatch("RESUMED", {})
        finally:
            self._sockets.remove(socket)
        return socket

    async def _send_ready(
        self, socket: web.WebSocketResponse, shard_id: int, shard_count: int
    ) -> None:
        """READY, then the guild when it belongs to this shard (Discord's routing:
        ``(guild_id >> 22) % shard_count``)."""
        ours = (self.guild_id >> 22) % shard_count == shard_id
        ready = {
            "v": 10,
            "user": self.users[self.bot_id],
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if ours else [],
            "session_id": f"session-{self.identified}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APPLICATION_ID), "flags": 0},
            "shard": [shard_id, shard_count],
        }
        await self._send(socket, "READY", ready)
        if ours:
            await self._send(socket, "GUILD_CREATE", self.guild_json())

    async def _send(self, socket: web.WebSocketResponse, event: str, data: Json) -> None:
        frame = {"op": 0, "t": event, "s": next(self._sequence), "d": data}
        await socket.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: Json, *, shard: int | None = None) -> None:
        """Send a gateway dispatch to every connected client (or to one shard's socket)."""
        for socket in list(self._sockets):
            if shard is None or self._socket_shards.get(id(socket)) == shard:
                await self._send(socket, event, data)

    def frame(self, event: str, data: Any) -> str:
        """The text of a dispatch frame, with the next sequence number."""
        return json.dumps({"op": 0, "t": event, "s": next(self._sequence), "d": data})

    async def send_raw(self, text: str) -> None:
        """Send a text frame as is (malformed ones included) to every connected client."""
        for socket in list(self._sockets):
            await socket.send_str(text)

    async def close_sessions(self, code: int) -> None:
        """Close every client's gateway connection with ``code`` (4004: token rejected)."""
        for socket in list(self._sockets):
            await socket.close(code=code)

    async def reconnect(self, missed: Sequence[tuple[str, Json]] = ()) -> None:
        """Ask every client to reconnect (op 7 RECONNECT), as Discord does when it moves a
        session. The dispatches in ``missed`` happen meanwhile: the client that resumes
        gets them replayed before RESUMED."""
        self._missed.extend(missed)
        for socket in list(self._sockets):
            await socket.send_str(json.dumps({"op": 7, "d": None}))

    async def invalidate_session(self) -> None:
        """Tell clients their session is gone: they identify again and get a new READY."""
        for socket in list(self._sockets):
            await socket.send_str(json.dumps({"op": 9, "d": False}))
