"""What ``/quiz me`` shows of seasons: the titles the member won."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.own_views import MeSection, MeView
from bot.seasons.cards import titles_field
from bot.seasons.store import SeasonStore


@dataclass(frozen=True, slots=True)
class TitlesSection:
    seasons: SeasonStore

    async def __call__(self, view: MeView) -> MeSection | None:
        titles = await self.seasons.member_titles(view.member_id)
        if not titles:
            return None
        return MeSection((titles_field(titles),))
