"""What ``/quiz me`` shows of the peer reviews: the member's own grades against their
reviewers'."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.own_views import MeSection, MeView
from bot.kernel.render import Field
from bot.reviews.peer import PeerReviews


@dataclass(frozen=True, slots=True)
class CalibrationSection:
    reviews: PeerReviews

    async def __call__(self, view: MeView) -> MeSection | None:
        judged = await self.reviews.calibration(view.member_id)
        if judged is None:
            return None
        return MeSection(
            (Field("Your grades and your reviewers'", judged[0].upper() + judged[1:]),)
        )
