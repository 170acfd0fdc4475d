"""Drives the quiz the way Slack would: signed requests dispatched through the bolt app."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slack_bolt.response import BoltResponse

from adapters.slack.connector import SlackPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.coaching.setup import CoachSetup
from bot.kernel.config import QuizConfig
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.service import QuizService
from questions.catalog import Catalog
from storage.sqlite.store import DEFAULT_BUSY_TIMEOUT_MS, SqliteStore
from tests.fakes import FakeClock
from tests.harness import running_service
from tests.slack.fake_slack import TEAM, FakeSlack, Posted
from tests.slack.signed import (
    FORM,
    JSON,
    action_body,
    bolt_request,
    command_body,
    event_body,
    view_submission_body,
)

CHANNEL = "C0QUIZ"
ADMIN = "U0ADMIN"  # a workspace admin according to users.info
LISTED_ADMIN = "U0LISTED"  # an admin through QUIZBOT_SLACK_ADMINS


@asynccontextmanager
async def running_slack_quiz(
    db_path: Path,
    settings: SlackSettings,
    fake: FakeSlack,
    clock: FakeClock,
    catalog: Catalog,
    config: QuizConfig,
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    coach: CoachSetup | None = None,
) -> AsyncIterator[SlackQuiz]:
    """A quiz on the Slack platform over HTTP, keeping its state in the database at
    ``db_path``, as ``quizbot run`` wires it."""

    def platforms(store: SqliteStore) -> list[Platform]:
        return [
            create_slack_platform(
                settings,
                http=True,
                host="127.0.0.1",
                port=0,
                post_interval=0,
                progress=store.unfinished_cards,
            )
        ]

    async with running_service(
        db_path, platforms, clock, catalog, config, busy_timeout_ms=busy_timeout_ms, coach=coach
    ) as service:
        slack = service.platforms["slack"]
        assert isinstance(slack, SlackPlatform)
        slack.show_home(service.home)  # as the runtime wires it
        await slack.start(service.handle)
        try:
            yield SlackQuiz(service, slack, fake, clock)
        finally:
            await slack.stop()


@dataclass
class SlackQuiz:
    service: QuizService
    slack: SlackPlatform
    fake: FakeSlack
    clock: FakeClock
    channel: str = CHANNEL
    channel_name: str | None = None  # as slash commands name the channel; None: left out
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def settle(self) -> None:
        await self.slack.wait_idle()
        await self.service.settle()

    async def command(self, text: str, *, by: str = ADMIN) -> BoltResponse:
        body = command_body(
            text,
            user=by,
            channel=self.channel,
            response_url=f"{self.fake.url}/response/1",
            channel_name=self.channel_name,
        )
        response = await self.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
        await self.settle()
        return response

    async def event(
        self, event: Mapping[str, Any], *, event_id: str | None = None, retry_num: int | None = None
    ) -> BoltResponse:
        body = event_body(event, event_id=event_id)
        request = bolt_request(body, content_type=JSON, retry_num=retry_num)
        response = await self.slack.app.async_dispatch(request)
        await self.settle()
        return response

    async def answer_count(self) -> int:
        """How many answers the latest round of the channel has saved."""
        channel = await self.service.engine.channel(ChannelRef("slack", TEAM, self.channel))
        assert channel is not None
        round_ = await self.service.store.rounds.latest_round(channel.id)
        assert round_ is not None
        return len(await self.service.store.answers.round_answers(round_.id))

    def member_ts(self) -> str:
        return f"1765000000.{next(self._ts):06d}"

    async def reply(
        self, text: str, *, by: str, ts: str | None = None, event_id: str | None = None
    ) -> str:
        ts = ts or self.member_ts()
        question = self.question()
        await self.event(
            {
                "type": "message",
                "channel": self.channel,
                "user": by,
                "text": text,
                "ts": ts,
                "thread_ts": question.ts,
            },
            event_id=event_id,
        )
        return ts

    async def react(self, name: str, *, by: str, ts: str, event_id: str | None = None) -> None:
        await self.event(
            {
                "type": "reaction_added",
                "user": by,
                "reaction": name,
                "item": {"type": "message", "channel": self.channel, "ts": ts},
            },
            event_id=event_id,
        )

    async def press(self, action: str, value: str, *, by: str) -> BoltResponse:
        body = action_body(
            action=action,
            value=value,
            user=by,
            channel=self.channel,
            message_ts=self.question().ts,
            response_url=f"{self.fake.url}/response/2",
        )
        response = await self.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
        await self.settle()
        return response

    async def press_on(self, message_ts: str, action: str, value: str, *, by: str) -> BoltResponse:
        """Press a button of any message (e.g. the review card, told privately)."""
        body = action_body(
            action=action,
            value=value,
            user=by,
            channel=self.channel,
            message_ts=message_ts,
            response_url=f"{self.fake.url}/response/3",
        )
        response = await self.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
        await self.settle()
        return response

    async def submit(
        self, view: Mapping[str, Any], values: Mapping[str, str | list[str]], *, by: str
    ) -> BoltResponse:
        """Submit a modal the bot opened, with these field values."""
        body = view_submission_body(view, values, user=by)
        response = await self.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
        await self.settle()
        return response

    def question(self) -> Posted:
        questions = [
            m
            for m in self.fake.posts(self.channel)
            if (m.key or "").endswith(":question") and m.first
        ]
        assert questions, "no question was posted"
        return questions[-1]

    def thread(self) -> list[Posted]:
        return self.fake.posts(self.channel, thread=self.question().ts)

    def told(self, user: str) -> list[str]:
        """Everything shown privately to ``user`` (ephemeral block texts), oldest first."""
        return [
            "\n".join(_texts(e["blocks"]))
            for e in self.fake.ephemerals
            if e["user"] == user and e["channel"] == self.channel
        ]


def _texts(blocks: list[dict[str, object]]) -> list[str]:
    return Posted("", "", "", blocks, None, None).block_texts()
