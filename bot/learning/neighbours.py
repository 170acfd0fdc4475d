"""What the learning loop and the member's page read of the features built on it (practice,
recaps), each as a protocol, so neither package imports them: they import the learning
loop, never the other way round. (What ``/quiz me`` shows of them, each declares in its
face: :mod:`bot.kernel.own_views`.)"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, TypeVar

from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Field, Image, Response

Session = TypeVar("Session")


class PracticeGrading(Protocol[Session]):
    """``/quiz grade`` in a practice DM: the session waiting there for a grade, if any."""

    async def waiting_for_grade(self, channel: ChannelRef) -> Session | None: ...

    async def grade(self, platform: Platform, session: Session, grade: Grade) -> None: ...

    def how_to_grade(self) -> Response: ...


class MemberActivity(Protocol):
    """``/quiz me``'s last weeks: as text, and as a chart."""

    async def member_activity(
        self,
        channel: ChannelSettings,
        member_id: int,
        name: str,
        now: datetime,
        target: datetime | None,
    ) -> tuple[Field, Image]: ...
