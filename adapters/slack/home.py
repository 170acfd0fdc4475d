"""The Slack Home tab: each member's own page, published with ``views.publish`` when they
open it (``app_home_opened``), and again after they press one of its buttons.

The page's text goes out first, right after the event is acknowledged, with the chart
uploaded last time if there was one: Slack shows it within its 3 seconds. Then the chart
is drawn; when it changed, it is uploaded into the member's IM with the bot (a file of
the bot's alone cannot be shown to the member: Slack refuses a ``slack_file`` they have no
access to) and the page is published again with it, in an image block by its file id,
never by a public URL. A page button runs its ``/quiz`` command as if the member typed it
in that IM, and the answer goes there.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from slack_bolt.app.async_app import AsyncApp

from adapters.slack.background import BackgroundWork
from adapters.slack.errors import slack_call
from adapters.slack.payloads import HOME_ACTION_PREFIX
from adapters.slack.render import Block, card_blocks
from bot.kernel.bounded_cache import BoundedCache
from bot.kernel.errors import PlatformError
from bot.kernel.events import Command
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Button, Card, Image
from bot.kernel.runtime import EventHandler
from bot.member_data.home import HomePage, HomePages, home_command

log = logging.getLogger(__name__)

MAX_HOME_BLOCKS = 100  # Slack's limit for a Home tab view
ALT_TEXT_LIMIT = 2000  # an image block's alt_text
CHART_TITLE = "Your mastery chart (shown on your quizbot Home tab)"

Ack = Callable[..., Awaitable[Any]]


class HomeOutbound(Protocol):
    """What the page needs of the Slack platform."""

    async def client_for(self, team: str) -> Any: ...

    async def open_direct(self, member: MemberRef) -> ChannelRef: ...

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None: ...

    async def display_name(self, member: MemberRef) -> str: ...


@dataclasses.dataclass(frozen=True, slots=True)
class UploadedChart:
    digest: str  # of the PNG: an unchanged chart is not uploaded again
    file_id: str


class SlackHome:
    """Publishes members' pages and answers their buttons."""

    def __init__(self, outbound: HomeOutbound, pages: HomePages, work: BackgroundWork) -> None:
        self._outbound = outbound
        self._pages = pages
        self._work = work
        self._handler: EventHandler | None = None
        self._charts: BoundedCache[tuple[str, str], UploadedChart] = BoundedCache()

    def register(self, app: AsyncApp) -> None:
        app.event("app_home_opened")(self.on_home_opened)
        app.action(re.compile(f"^{re.escape(HOME_ACTION_PREFIX)}"))(self.on_home_action)

    def attach(self, handler: EventHandler) -> None:
        self._handler = handler

    async def on_home_opened(self, body: dict[str, Any]) -> None:
        event = body.get("event") or {}
        user, team = event.get("user"), _team(body)
        if event.get("tab", "home") != "home" or not isinstance(user, str) or not team:
            return  # the Messages tab, or a payload without a member: nothing to show
        member = MemberRef("slack", team, user)
        self._work.spawn(self.publish(member), name=f"home:{team}:{user}")

    async def on_home_action(self, body: dict[str, Any], action: dict[str, Any], ack: Ack) -> None:
        await ack()
        user = (body.get("user") or {}).get("id")
        value = str(action.get("value") or "")
        team = _team(body)
        if not isinstance(user, str) or not team or not value:
            return
        member = MemberRef("slack", team, user)
        trigger = str(body.get("trigger_id") or action.get("action_ts") or "")
        self._work.spawn(self._press(member, value, trigger), name=f"home-press:{trigger}")

    async def publish(self, member: MemberRef) -> None:
        """The page now (with the chart uploaded before, if any), then with today's chart."""
        name = await self._outbound.display_name(member)
        member = dataclasses.replace(member, display_name=name) if name else member
        page = await self._pages.page(member)
        key = (member.workspace, member.member_id)
        cached = self._charts.get(key)
        await self._publish(member, page, cached.file_id if cached else None)
        image = await self._pages.chart(member, page)
        if image is None:
            return
        digest = hashlib.sha256(image.png).hexdigest()
        if cached is not None and cached.digest == digest:
            return
        file_id = await self._upload(member, image)
        if file_id is None:
            return
        self._charts.put(key, UploadedChart(digest, file_id))
        await self._publish(member, page, file_id, image)

    async def _publish(
        self, member: MemberRef, page: HomePage, file_id: str | None, image: Image | None = None
    ) -> None:
        client = await self._outbound.client_for(member.workspace)
        view = home_view(page.card, file_id, image)
        try:
            async with slack_call("views.publish"):
                await client.views_publish(user_id=member.member_id, view=view)
        except PlatformError as problem:
            if file_id is None:
                raise
            # e.g. the file was deleted: the page stands without its chart
            log.warning("the Home tab's chart was refused; published without it: %s", problem)
            self._charts.put((member.workspace, member.member_id), UploadedChart("", ""))
            async with slack_call("views.publish"):
                await client.views_publish(
                    user_id=member.member_id, view=home_view(page.card, None)
                )

    async def _upload(self, member: MemberRef, image: Image) -> str | None:
        try:
            direct = await self._outbound.open_direct(member)
            client = await self._outbound.client_for(member.workspace)
            async with slack_call("files.completeUploadExternal"):
                answer = await client.files_upload_v2(
                    channel=direct.channel_id,
                    file=image.png,
                    filename=image.filename,
                    title=CHART_TITLE,
                    alt_txt=image.description[:1000],
                )
        except PlatformError as problem:
            log.warning("the Home tab's chart was not uploaded: %s", problem)
            return None
        uploaded = answer.get("file") or {}
        file_id = uploaded.get("id")
        return str(file_id) if file_id else None

    async def _press(self, member: MemberRef, value: str, trigger: str) -> None:
        if self._handler is None:
            raise RuntimeError("a Home tab button was pressed before the connector started")
        name = await self._outbound.display_name(member)
        member = dataclasses.replace(member, display_name=name) if name else member
        wanted = home_command(value)
        if wanted.channel_id is None:
            where = await self._outbound.open_direct(member)
        else:
            where = ChannelRef("slack", member.workspace, wanted.channel_id)
        command = Command(
            event_id=f"home:{trigger}",
            channel=where,
            member=member,
            name=wanted.name,
            args=wanted.args,
            direct=wanted.channel_id is None,
            text=wanted.text,
        )
        response = await self._handler(command)
        if response is not None:
            await self._outbound.tell(member, where, response.card)
        await self.publish(member)  # the switch as it stands now


def home_view(card: Card, file_id: str | None, image: Image | None = None) -> dict[str, Any]:
    """The Home tab view: the card's blocks, its chart by file id, then its buttons."""
    blocks: list[Block] = list(card_blocks(dataclasses.replace(card, buttons=(), image=None)))
    if file_id:
        alt = image.description if image is not None else "Your mastery per topic"
        blocks.append(
            {"type": "image", "slack_file": {"id": file_id}, "alt_text": alt[:ALT_TEXT_LIMIT]}
        )
    if card.buttons:
        blocks.append(
            {"type": "actions", "elements": [_button(b, i) for i, b in enumerate(card.buttons)]}
        )
    return {"type": "home", "blocks": blocks[:MAX_HOME_BLOCKS]}


def _button(button: Button, index: int) -> Block:
    element: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": button.label[:75]},
        "action_id": f"{HOME_ACTION_PREFIX}{index}",
        "value": button.value,
    }
    if index == 0:
        element["style"] = "primary"
    return element


def _team(body: dict[str, Any]) -> str:
    team = body.get("team_id") or (body.get("team") or {}).get("id")
    if not team:
        user = body.get("user") or {}
        team = user.get("team_id") if isinstance(user, dict) else None
    return str(team or "")
