"""What ``/quiz me`` shows of the pairing: the mock interviews the member gave and took."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.own_views import MeSection, MeView
from bot.kernel.render import Field
from bot.pairing.store import PairStore


@dataclass(frozen=True, slots=True)
class MockInterviewsSection:
    pairs: PairStore

    async def __call__(self, view: MeView) -> MeSection | None:
        counts = await self.pairs.pair_counts(view.member_id)
        if not (counts.given or counts.taken):
            return None
        text = f"{counts.given} given, {counts.taken} taken"
        return MeSection((Field("Mock interviews", text, inline=True),))
