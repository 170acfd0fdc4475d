"""What the learning loop's commands read of the features built on it (practice, recaps,
peer reviews, pairing), each as a protocol, so the learning package imports none of them:
they import the learning loop, never the other way round."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, TypeVar

from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings
from bot.kernel.pair_facts import PairCounts
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


class MemberCalibration(Protocol):
    """``/quiz me``'s comparison of a member's own grades with their reviewers'."""

    async def calibration(self, member_id: int) -> str | None: ...


class PairCountsLookup(Protocol):
    """What ``/quiz me`` reads of the pairing feature: a member's mock interviews."""

    async def pair_counts(self, member_id: int) -> PairCounts: ...
