"""Drives the quiz the way Slack would: signed requests dispatched through the bolt app."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from slack_bolt.response import BoltResponse

from adapters.slack.connector import SlackPlatform
from bot.refs import ChannelRef
from bot.service import QuizService
from tests.fakes import FakeClock
from tests.slack.fake_slack import TEAM, FakeSlack, Posted
from tests.slack.signed import (
    FORM,
    JSON,
    action_body,
    bolt_request,
    command_body,
    event_body,
)

CHANNEL = "C0QUIZ"
ADMIN = "U0ADMIN"  # a workspace admin according to users.info
LISTED_ADMIN = "U0LISTED"  # an admin through QUIZBOT_SLACK_ADMINS


@dataclass
class SlackQuiz:
    service: QuizService
    slack: SlackPlatform
    fake: FakeSlack
    clock: FakeClock
    channel: str = CHANNEL
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def settle(self) -> None:
        await self.slack.wait_idle()
        await self.service.settle()

    async def command(self, text: str, *, by: str = ADMIN) -> BoltResponse:
        body = command_body(
            text, user=by, channel=self.channel, response_url=f"{self.fake.url}/response/1"
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
        round_ = await self.service.store.latest_round(channel.id)
        assert round_ is not None
        return len(await self.service.store.round_answers(round_.id))

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

    def question(self) -> Posted:
        questions = [
            m for m in self.fake.posts(self.channel) if (m.key or "").endswith(":question")
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
