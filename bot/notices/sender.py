"""Queues the notices a round's outbox steps decide: who is told, once each (members
with notices on, and not away that day).

The ``NOTICE`` step runs once the question is posted (its link exists), the ``LAST_CALL``
step at its time; each queues one direct message per member under a key of the round and
the member (``notice:<round>:<member>``, ``lastcall:<round>:<member>``), so a step retried
after a crash queues nothing twice and the outbox sends each message once.
"""

from __future__ import annotations

import logging
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.away.store import AwayStore
from bot.kernel.models import ChannelSettings, Round, direct_draft
from bot.kernel.platform import Platform
from bot.kernel.refs import MessageRef
from bot.notices.cards import last_call_card, question_notice_card
from bot.notices.store import NoticeStore, Subscriber
from bot.outbox.store import OutboxStore
from bot.rounds.store import AnswerStore
from questions.pack import Question

log = logging.getLogger(__name__)


def notice_key(round_id: int, member_id: int) -> str:
    return f"notice:{round_id}:{member_id}"


def last_call_key(round_id: int, member_id: int) -> str:
    return f"lastcall:{round_id}:{member_id}"


class NoticeSender:
    """Builds and queues the direct messages of a round's notices."""

    def __init__(
        self,
        *,
        notices: NoticeStore,
        answers: AnswerStore,
        outbox: OutboxStore,
        away: AwayStore,
    ) -> None:
        self._notices = notices
        self._answers = answers
        self._outbox = outbox
        self._away = away

    async def question_posted(
        self,
        platform: Platform,
        round_: Round,
        channel: ChannelSettings,
        question: Question,
        now: datetime,
    ) -> int:
        """Queue "question #N is up" for each subscriber; how many were queued now."""
        subscribers = await self._here(channel, now)
        if not subscribers:
            return 0
        link = await self._link(platform, round_, channel)
        card = question_notice_card(channel, round_, question, link)
        drafts = [
            direct_draft(s.direct, card, notice_key(round_.id, s.member_id)) for s in subscribers
        ]
        return await self._outbox.enqueue(drafts, now)

    async def last_call(
        self, platform: Platform, round_: Round, channel: ChannelSettings, now: datetime
    ) -> int:
        """Queue the last call for each subscriber who has not answered the round (none once
        it is revealed or closed: the outline came already)."""
        if round_.revealed_at is not None or round_.closed_at is not None:
            return 0
        answered = {answer.member_id for answer in await self._answers.round_answers(round_.id)}
        waiting = [s for s in await self._here(channel, now) if s.member_id not in answered]
        if not waiting:
            return 0
        card = last_call_card(channel, round_, await self._link(platform, round_, channel))
        drafts = [
            direct_draft(s.direct, card, last_call_key(round_.id, s.member_id)) for s in waiting
        ]
        return await self._outbox.enqueue(drafts, now)

    async def _here(self, channel: ChannelSettings, now: datetime) -> list[Subscriber]:
        """The channel's subscribers who are not away today (the channel's local date)."""
        today = now.astimezone(ZoneInfo(channel.timezone)).date()
        subscribers = await self._notices.subscribers(channel.id)
        if not subscribers:
            return []
        away = await self._away.away_among([s.member_id for s in subscribers], today)
        return [s for s in subscribers if s.member_id not in away]

    @staticmethod
    async def _link(platform: Platform, round_: Round, channel: ChannelSettings) -> str | None:
        if round_.question_message is None:
            return None
        try:
            return await platform.link(MessageRef(channel.ref, round_.question_message))
        except Exception as problem:  # a notice without its link still says where to go
            log.warning("no link to question #%d: %s", round_.number, problem)
            return None
