"""After downtime, the missed slots a channel owed: a slot from before the channel began
to owe its questions (``bot.kernel.owed_since``) is neither posted late nor missed, and a
slot on one of its skipped days is no missed slot either."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import islice

from bot.kernel.owed_since import OwedSince
from bot.scheduling.skipped_days import SkippedDayStore, slot_day
from bot.scheduling.slot_arithmetic import SKIPPED_COUNT_LIMIT, MissedSlot, missed_slot, slots_after
from bot.scheduling.slot_plans import SlotPlan

_JUST_BEFORE = timedelta(microseconds=1)


class OwedSlots:
    """Narrows a channel's missed-slot decision to the slots it owed."""

    def __init__(self, owed: OwedSince, skipped_days: SkippedDayStore) -> None:
        self._owed = owed
        self._skipped_days = skipped_days

    async def narrowed(
        self,
        channel_id: int,
        plan: SlotPlan,
        now: datetime,
        last_round_at: datetime | None,
        decision: MissedSlot,
    ) -> MissedSlot:
        """``decision`` (:func:`missed_slot` from the latest round, ``last_round_at``)
        counted from the later of the latest round and the moment the channel began to owe
        its slots, without the slots of skipped days. The caller skips the usual restart,
        with no slot since the latest round (start-up decides it for each of 10,000
        channels, and there is nothing to look up)."""
        spec, zone = plan.spec, plan.tz
        since = await self._owed.since(channel_id)
        if since is not None and (last_round_at is None or since > last_round_at):
            decision = missed_slot(spec, zone, now, plan.grace, since)
        oldest, newest = decision.oldest_skipped, decision.newest_skipped
        if oldest is None or newest is None:
            return decision
        holidays = set(
            await self._skipped_days.skipped_days(
                channel_id, slot_day(oldest, zone), slot_day(newest, zone)
            )
        )
        if not holidays:
            return decision
        missed = [
            slot
            for slot in islice(slots_after(spec, zone, oldest - _JUST_BEFORE), decision.skipped)
            if slot <= newest and slot_day(slot, zone) not in holidays
        ]
        return MissedSlot(
            post=decision.post,
            skipped=min(len(missed), SKIPPED_COUNT_LIMIT + 1),
            oldest_skipped=missed[0] if missed else None,
            newest_skipped=missed[-1] if missed else None,
        )
