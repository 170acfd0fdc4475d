"""Bolt listeners: Slack requests in, core events out, responses back to Slack.

The app runs with ``process_before_response=True`` so nothing runs in a task
bolt would forget: Events API deliveries are handed to the core *before* the
200 goes back: an event the core could not record (``NotRecorded``) is answered
503 and Slack delivers it again; the core drops repeats by event id, so a
duplicate is answered 200 and does nothing.
Slash commands and buttons are acknowledged first (Slack wants that within
3 seconds) and answered from a tracked background job.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qsl

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.request.async_internals import build_async_context
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from adapters.ops.log_throttle import ThrottledLog
from adapters.slack.background import BackgroundWork
from adapters.slack.forms import form_submit_from, modal_view, view_errors
from adapters.slack.inbound import (
    PayloadError,
    Removal,
    button_from,
    command_from,
    direct_from,
    reaction_from,
    removal_from,
    reply_from,
)
from adapters.slack.payloads import QUIZ_COMMAND, describe, route
from adapters.slack.render import ACTION_PREFIX, FORM_PREFIX, render_card
from bot.kernel import cards
from bot.kernel.errors import NotRecorded, PlatformError
from bot.kernel.events import ButtonPress, Command, DirectMessage, Event, Reply
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Response
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

NOT_INSTALLED = (
    "quizbot is not installed in this workspace, or Slack no longer takes its token: an"
    " admin can reinstall it, and `/quiz` works here again."
)
FAILURE_CARD = cards.error(
    "Something went wrong while handling that. Please try again in a minute."
)

Ack = Callable[..., Awaitable[Any]]
Respond = Callable[..., Awaitable[Any]]
T = TypeVar("T")


class Outbound(Protocol):
    """The part of the platform the listeners answer through."""

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> Any: ...

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None: ...

    async def display_name(self, member: MemberRef) -> str: ...

    async def open_form(self, team: str, trigger_id: str, view: dict[str, Any]) -> None: ...

    async def workspace_removed(self, removal: Removal) -> None: ...


class SlackListeners:
    """The bolt listeners: Slack requests in, core events out, responses back."""

    def __init__(
        self,
        outbound: Outbound,
        work: BackgroundWork,
        *,
        serves: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        """``serves``: whether the app is installed in a workspace (with installs in many
        workspaces; None: one bot token, every request is its workspace's)."""
        self._outbound = outbound
        self._work = work
        self._serves = serves
        self._handler: EventHandler | None = None
        # A store that cannot write fails every event: one line per interval says so.
        self._log_not_recorded = ThrottledLog(log, logging.WARNING)
        self._log_not_installed = ThrottledLog(log, logging.INFO)
        self.admission = Admission(self.admit)

    async def admit(self, req: AsyncBoltRequest) -> BoltResponse | None:
        """Run before anything else reads the body (:class:`Admission`): a request none of
        the listeners takes (another event type or command, a shortcut, a view, a body of
        an unexpected shape) is acknowledged and ignored, so Slack does not retry it; so is
        one from a workspace where the app is not installed (one throttled line, where
        bolt's authorization logged an error for each). None: let it through."""
        fields = misread_form(req)
        if fields is not None:
            req.body = fields
            build_async_context(req.context, fields)
        kind = route(req.body)
        if kind is None:
            log.debug("acknowledged and ignored a Slack request: %s", describe(req.body))
            return BoltResponse(status=200, body="")
        team = req.context.team_id or ""
        if kind != "bolt" and self._serves is not None and not await self._serves(team):
            self._log_not_installed(
                "ignored a Slack request from workspace %s: the app is not installed there"
                " (or Slack refused its token)",
                team or "(none named)",
            )
            return BoltResponse(status=200, body=NOT_INSTALLED if kind == "command" else "")
        return None

    def register(self, app: AsyncApp) -> None:
        app.event("reaction_added")(self.on_reaction)
        app.event("message")(self.on_message)
        app.event("app_uninstalled")(self.on_removal)
        app.event("tokens_revoked")(self.on_removal)
        app.command(QUIZ_COMMAND)(self.on_command)
        app.action(re.compile(f"^{re.escape(ACTION_PREFIX)}"))(self.on_action)
        app.view(re.compile(f"^{re.escape(FORM_PREFIX)}"))(self.on_view)
        app.error(self.on_error)

    def attach(self, handler: EventHandler) -> None:
        self._handler = handler

    # Events API: handled before the 200 goes back.

    async def on_reaction(self, body: dict[str, Any]) -> None:
        event = _translate(reaction_from, body)
        if event is not None:
            await self._handle(event, respond=None)

    async def on_message(self, body: dict[str, Any]) -> None:
        # An IM first: a member's reply in a thread of their IM with the bot is a direct
        # message too (a practice answer), not a reply in a quiz thread.
        event: Reply | DirectMessage | None = _translate(direct_from, body) or _translate(
            reply_from, body
        )
        if event is not None:
            event = dataclasses.replace(event, member=await self._named(event.member))
            await self._handle(event, respond=None)

    async def on_removal(self, body: dict[str, Any]) -> None:
        """``app_uninstalled``, or ``tokens_revoked`` naming the bot (the quiz keeps no
        user's token)."""
        removal = _translate(removal_from, body)
        if removal is not None:
            await self._outbound.workspace_removed(removal)

    async def on_error(self, error: Exception, body: dict[str, Any]) -> BoltResponse | None:
        """An event the core could not record is answered 503, so Slack delivers it again."""
        if isinstance(error, NotRecorded):
            self._log_not_recorded("answering 503 so Slack delivers it again: %s", error)
            return BoltResponse(status=503, body="")
        log.error("handling a Slack request failed", exc_info=error)
        return None  # bolt answers 500

    # Slash command and buttons: acknowledged first, answered afterwards.

    async def on_command(self, body: dict[str, Any], ack: Ack, respond: Respond) -> None:
        await ack()
        command = _translate(command_from, body)
        if command is not None:
            trigger = str(body.get("trigger_id") or "")
            self._work.spawn(self._answer(command, respond, trigger), name=command.event_id)

    async def on_action(
        self, body: dict[str, Any], action: dict[str, Any], ack: Ack, respond: Respond
    ) -> None:
        await ack()
        press = _translate(lambda b: button_from(b, action), body)
        if press is not None:
            trigger = str(body.get("trigger_id") or "")
            self._work.spawn(self._answer(press, respond, trigger), name=press.event_id)

    async def on_view(self, body: dict[str, Any], ack: Ack) -> None:
        """A modal of ours was submitted. Answered before the acknowledgement: a refused
        field goes back as ``response_action: errors`` and the modal stays open with
        everything typed in it."""
        submit = _translate(form_submit_from, body)
        if submit is None:
            await ack()
            return
        submit = dataclasses.replace(submit, member=await self._named(submit.member))
        try:
            response = await self._call(submit)
        except Exception:
            log.exception("handling %s failed", submit.event_id)
            await ack()
            self._work.spawn(self._deliver(Response(FAILURE_CARD), submit, None), name="form")
            return
        if response is not None and response.problems:
            await ack(response_action="errors", errors=view_errors(response.problems))
            return
        await ack()
        if response is not None:
            self._work.spawn(self._deliver(response, submit, None), name=submit.event_id)

    async def _answer(
        self, event: Command | ButtonPress, respond: Respond | None, trigger: str = ""
    ) -> None:
        event = dataclasses.replace(event, member=await self._named(event.member))
        try:
            await self._handle(event, respond=respond, trigger=trigger)
        except Exception:
            log.exception("handling %s failed", event.event_id)
            await self._deliver(Response(FAILURE_CARD), event, respond)

    async def _call(self, event: Event) -> Response | None:
        if self._handler is None:
            raise RuntimeError("Slack event arrived before the connector was started")
        return await self._handler(event)

    async def _handle(self, event: Event, *, respond: Respond | None, trigger: str = "") -> None:
        response = await self._call(event)
        if response is None:
            return
        if response.form is not None and trigger:
            try:
                await self._outbound.open_form(
                    event.channel.workspace, trigger, modal_view(response.form, event.channel)
                )
                return
            except PlatformError as problem:  # e.g. the trigger expired: say so in words
                log.warning("could not open a form for %s: %s", event.event_id, problem)
        await self._deliver(response, event, respond)

    async def _named(self, member: MemberRef) -> MemberRef:
        name = await self._outbound.display_name(member)
        return dataclasses.replace(member, display_name=name) if name else member

    async def _deliver(self, response: Response, event: Event, respond: Respond | None) -> None:
        try:
            if response.public:
                await self._outbound.post(
                    event.channel, response.card, key=f"response:{event.event_id}"
                )
            else:
                await self._outbound.tell(event.member, event.channel, response.card)
            return
        except PlatformError as problem:
            if respond is None:
                log.warning("could not answer %s: %s", event.event_id, problem)
                return
            log.info("answering %s through response_url: %s", event.event_id, problem)
        # The bot may not be in the channel yet: the command's response_url still works.
        for message in render_card(response.card):
            await respond(
                text=message.text,
                blocks=message.blocks,
                response_type="in_channel" if response.public else "ephemeral",
            )


class Admission(AsyncMiddleware):
    """:meth:`SlackListeners.admit` as bolt's before-authorize step. A middleware object,
    not a function: for a function bolt first builds listener arguments from the body,
    which raises on some shapes (a view without a type), and the request got a 500."""

    def __init__(self, admit: Callable[[AsyncBoltRequest], Awaitable[BoltResponse | None]]):
        self._admit = admit

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],  # bolt's name for it
    ) -> BoltResponse | None:
        answer = await self._admit(req)
        if answer is not None:
            return answer
        await next()
        return resp


def misread_form(req: AsyncBoltRequest) -> dict[str, str] | None:
    """The fields of a form body bolt misread: it takes any form body containing the word
    ``payload`` (``/quiz answer the payload is 8 bytes``) for an interactivity payload,
    finds none and reads nothing, so the command was dropped. None when it read it."""
    raw = req.raw_body
    if req.body or req.mode != "http" or not raw or raw.startswith("{") or "payload" not in raw:
        return None
    fields = dict(parse_qsl(raw, keep_blank_values=True))
    return fields if fields and "payload" not in fields else None


def _translate(translate: Callable[[dict[str, Any]], T], body: dict[str, Any]) -> T | None:
    try:
        return translate(body)
    except PayloadError as problem:
        log.debug("acknowledged and ignored a Slack payload: %s", problem)
        return None
