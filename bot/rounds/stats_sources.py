"""What ``/quiz stats`` and a round's grade buttons use of the features built on the
rounds (the learning loop, the members' goals), each as a protocol, so the rounds package
imports none of them: they import the rounds, never the other way round."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.bank.store import Workspace
from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.render import Card, Response


class WeakestTopics(Protocol):
    """``/quiz stats``: the channel's topics of lowest expected recall, weakest first."""

    async def weakest_topics(
        self, channel_id: int, at: datetime, count: int = 3, workspace: Workspace | None = None
    ) -> list[tuple[str, float]]: ...

    async def memory_parameters(self, workspace: Workspace) -> str | None:
        """Which FSRS parameters the workspace's memory model has, and since when."""
        ...


class ReadinessView(Protocol):
    """``/quiz stats readiness``: each member with a goal date and their expected recall."""

    async def card(self, channel: ChannelRef, workspace: Workspace, now: datetime) -> Card: ...


class RoundGrader(Protocol):
    """A member's grade of their own answer to a round (its grade buttons)."""

    async def grade(
        self, channel: ChannelSettings, round_: Round, member: MemberRef, grade: Grade
    ) -> Response: ...


class CoachSpending(Protocol):
    """``/quiz stats`` for an admin: what the answer coach spent in the workspace this
    (UTC) month; None when the operator set no coach."""

    async def this_month(self, channel: ChannelSettings, now: datetime) -> tuple[int, int] | None:
        """The month's requests and tokens."""
        ...

    async def agreement(self, channel: ChannelSettings) -> str | None:
        """How the coach's ticks compare with teammates' reviews in the channel."""
        ...
