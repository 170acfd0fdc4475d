"""Time away on a member's page, with the button that ends it (``/quiz away``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.away.periods import is_away
from bot.away.store import AwayStore
from bot.kernel.clock import Clock
from bot.kernel.own_views import HOME_ACTION
from bot.kernel.render import Button, Field


@dataclass(frozen=True, slots=True)
class AwayOnPage:
    """Back now with one press; going away needs a date, which the field says how to give."""

    away: AwayStore
    clock: Clock

    async def show(self, member_id: int) -> Sequence[tuple[Field, Button | None]]:
        until = await self.away.until_for_member(member_id)
        if until is not None and is_away(until, self.clock.now().date()):
            field = Field("Time away", f"away through {until:%a %d %b %Y}", inline=True)
            return [(field, Button("I'm back", HOME_ACTION, "away off"))]
        hint = "not away (`/quiz away until YYYY-MM-DD` in our direct messages)"
        return [(Field("Time away", hint, inline=True), None)]
