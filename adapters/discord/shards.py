"""Which of the bot's gateway shards this process runs, and its share of the REST budget.

A big bot is split over processes by shard: ``--shards 0-3 --shard-count 8`` in one
process, ``--shards 4-7 --shard-count 8`` in another. Discord routes a guild to shard
``(guild_id >> 22) % shard_count``, so every process must be given the same count.
Discord's global REST limit belongs to the bot, not to a process: each process paces
at ``budget × its shards / shard_count`` so that together they stay under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.scheduling.schedule_spec import ranges_text
from bot.settings import SettingsError

ITEM = re.compile(r"^(\d+)(?:-(\d+))?$")
SYNTAX = "use shard ids and ranges such as 0-3 or 0,2,5-7"


@dataclass(frozen=True)
class ShardPlan:
    """The shard ids this process runs, out of ``count`` for the whole bot."""

    ids: tuple[int, ...]
    count: int

    @property
    def share(self) -> float:
        """This process's fraction of the bot's gateway shards (and of its REST budget)."""
        return len(self.ids) / self.count

    def describe(self) -> str:
        return f"shards {format_ids(self.ids)} of {self.count}"


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0,2,5-7"`` as sorted ids; SettingsError on anything else."""
    ids: list[int] = []
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise SettingsError(f"--shards {text!r} is empty or has an empty item: {SYNTAX}")
    for item in items:
        match = ITEM.match(item)
        if match is None:
            raise SettingsError(f"--shards: {item!r} is not a shard id or range: {SYNTAX}")
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise SettingsError(
                f"--shards: the range {item!r} runs backwards; write {last}-{first}"
            )
        ids.extend(range(first, last + 1))
    repeated = sorted({shard for shard in ids if ids.count(shard) > 1})
    if repeated:
        raise SettingsError(f"--shards lists shard {format_ids(tuple(repeated))} more than once")
    return tuple(sorted(ids))


def shard_plan(shards: str | None, count: int | None) -> ShardPlan | None:
    """The plan from ``--shards``/``--shard-count`` (or QUIZBOT_DISCORD_SHARDS and
    QUIZBOT_DISCORD_SHARD_COUNT); None when neither is given (discord.py's default:
    one shard). A count alone runs every shard of the bot in this process."""
    if shards is None and count is None:
        return None
    if count is None:
        raise SettingsError(
            "--shards needs --shard-count (QUIZBOT_DISCORD_SHARD_COUNT), the bot's total number "
            "of shards, the same in every process"
        )
    if count < 1:
        raise SettingsError(f"--shard-count must be at least 1, not {count}")
    ids = parse_shard_ids(shards) if shards is not None else tuple(range(count))
    outside = [shard for shard in ids if shard >= count]
    if outside:
        raise SettingsError(
            f"--shards: shard {format_ids(tuple(outside))} is not below --shard-count {count} "
            f"(the ids run from 0 to {count - 1})"
        )
    return ShardPlan(ids, count)


def paced_rate(budget: float, plan: ShardPlan | None) -> float:
    """The requests per second this process may send: the bot's budget times its share."""
    return budget if plan is None else budget * plan.share


def format_ids(ids: tuple[int, ...]) -> str:
    """``(0, 1, 2, 5)`` as ``"0-2,5"``."""
    return ranges_text(ids)
