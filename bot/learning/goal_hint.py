"""The one-time hint that a goal date makes practice aim at it.

Most members never set a goal; practice then looks a fixed horizon ahead, rolling on (see
:data:`bot.learning.practice_policy.NO_GOAL_HORIZONS`). The first practice a member starts
without a goal says, once, that ``/quiz goal`` would aim it at their interview; that it was
said is kept with the store's facts, so it is said once whatever replica serves them.
"""

from __future__ import annotations

from bot.kernel.stores import MetaStore
from bot.learning.practice_policy import no_goal_horizons

HINT = (
    f"No goal date set: practice looks {no_goal_horizons()} days ahead, rolling on. Have an"
    " interview coming? `/quiz goal YYYY-MM-DD` makes practice aim at that day."
)


def _key(member_id: int) -> str:
    return f"learning.goal-hint-shown.{member_id}"


class GoalHint:
    """Whether a member without a goal is still to be told about ``/quiz goal``."""

    def __init__(self, meta: MetaStore) -> None:
        self._meta = meta

    async def take(self, member_id: int, has_goal: bool) -> str | None:
        """The hint when it is due (no goal, never shown), marked shown; else None."""
        if has_goal or await self._meta.get_meta(_key(member_id)) is not None:
            return None
        await self._meta.set_meta(_key(member_id), "1")
        return HINT
