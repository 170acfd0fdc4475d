"""A season's standings in a channel: most points, most improved, most helpful.

- **Most points**: what the leaderboard counts (answers with their votes and points for
  quality, bonuses, reviews' points), summed by the database over the season.
- **Most improved**: the gain in the member's expected recall over the questions they
  have graded by the season's end (in any channel or in practice). For each such question
  the memory model (:mod:`bot.learning.memory_model`) forecasts recall at the season's
  start from the grades given before it (a question not yet graded then: the model's
  prior), and at its end from the grades given before that; the gain is the mean of the
  second less the mean of the first, in percentage points.
- **Most helpful**: reviews the member wrote in the season in the channel whose score
  (missed 1 .. nailed 4) is the answer's author's own grade of that round: a review that
  judged the answer as its author did once they saw the outline. A review of an answer
  whose author gave no grade of their own does not count (the reviews' median would be
  that grade, so the review would agree with itself).

Who is ranked: members who earned points or wrote a review in the channel in the season,
except those away (``/quiz away``) on more than half of its days that the channel did
not skip (``/quiz skip`` days); for the running season, of its days so far.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.away.store import AwayStore
from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings
from bot.learning.memory_model import MemoryCard, MemoryModel, ModelOf, defaults_everywhere
from bot.scheduling.skipped_days import SkippedDayStore
from bot.seasons.periods import Season, local_day
from bot.seasons.store import Champion, MemberTotal, SeasonStore, Title

SHOWN = 5  # rows of each ranking `/quiz season` shows


@dataclass(frozen=True, slots=True)
class Standing:
    member_id: int
    name: str
    score: float


@dataclass(frozen=True, slots=True)
class Standings:
    season: Season
    points: tuple[Standing, ...]
    improved: tuple[Standing, ...]
    helpful: tuple[Standing, ...]
    unranked: tuple[str, ...]  # names of the members away for most of it

    def champions(self) -> tuple[Champion, ...]:
        """The first of each ranking with a score above zero."""
        found = []
        for title, ranking in (
            (Title.POINTS, self.points),
            (Title.IMPROVED, self.improved),
            (Title.HELPFUL, self.helpful),
        ):
            if ranking and ranking[0].score > 0:
                top = ranking[0]
                found.append(Champion(title, top.member_id, top.name, top.score))
        return tuple(found)


class SeasonStandings:
    """Computes standings from the store's aggregates, the away periods and the model."""

    def __init__(
        self,
        seasons: SeasonStore,
        away: AwayStore,
        skipped_days: SkippedDayStore,
        models: ModelOf = defaults_everywhere,
    ) -> None:
        self._seasons = seasons
        self._away = away
        self._skipped_days = skipped_days
        self._models = models

    async def of(self, channel: ChannelSettings, season: Season, now: datetime) -> Standings:
        """The standings of ``season`` in the channel as of ``now`` (its end, once over)."""
        start, end = season.bounds(channel.timezone)
        until = min(end, now)
        points = await self._seasons.points_between(channel.id, start, until)
        helpful = await self._seasons.helpful_reviews_between(channel.id, start, until)
        reviewers = await self._seasons.reviewers_between(channel.id, start, until)
        taking_part = {t.member_id: t for t in (*points, *reviewers)}
        away = await self._away_for_most(channel, season, until, taking_part.values())
        ranked = [m for m in taking_part if m not in away]
        model = await self._models(channel.ref.platform, channel.ref.workspace)
        gains = await self._gains(model, ranked, start, until)
        names = {t.member_id: t.name for t in taking_part.values()}
        return Standings(
            season=season,
            points=_ranking(points, away),
            improved=tuple(
                Standing(m, names[m], gain)
                for m, gain in sorted(gains.items(), key=lambda item: (-item[1], item[0]))
            ),
            helpful=_ranking(helpful, away),
            unranked=tuple(sorted(names[m] for m in away)),
        )

    async def _away_for_most(
        self,
        channel: ChannelSettings,
        season: Season,
        until: datetime,
        members: Collection[MemberTotal],
    ) -> frozenset[int]:
        taking_part = list(members)
        if not taking_part:
            return frozenset()
        last = min(season.next_first_day, local_day(until, channel.timezone) + timedelta(1))
        days = [d for d in season.dates() if d < last]
        skipped = set(await self._skipped_days.skipped_days(channel.id, season.first_day, last))
        counted = [d for d in days if d not in skipped]
        if not counted:
            return frozenset()
        periods = await self._away.periods(
            channel.ref.workspace, [m.platform_id for m in taking_part]
        )
        away = set()
        for member in taking_part:
            spans = periods.get(member.platform_id, [])
            away_days = sum(1 for d in counted if any(s.covers(d) for s in spans))
            if away_days * 2 > len(counted):
                away.add(member.member_id)
        return frozenset(away)

    async def _gains(
        self, model: MemoryModel, member_ids: Sequence[int], start: datetime, end: datetime
    ) -> dict[int, float]:
        if not member_ids:
            return {}
        logs = await self._seasons.grade_logs(member_ids, end)
        return await asyncio.to_thread(_recall_gains, model, logs, start, end)


def _ranking(totals: Sequence[MemberTotal], away: frozenset[int]) -> tuple[Standing, ...]:
    return tuple(Standing(t.member_id, t.name, t.total) for t in totals if t.member_id not in away)


def _recall_gains(
    model: MemoryModel,
    logs: dict[int, list[tuple[int, Grade, datetime]]],
    start: datetime,
    end: datetime,
) -> dict[int, float]:
    """Each member's gain in mean expected recall (percentage points) over the questions
    graded before ``end``, from ``start`` to ``end``: each question's card is replayed
    once, read at ``start`` on the way."""
    gains: dict[int, float] = {}
    for member_id, log in logs.items():
        by_question: dict[int, list[tuple[Grade, datetime]]] = {}
        for question_id, grade, at in log:
            by_question.setdefault(question_id, []).append((grade, at))
        if not by_question:
            continue
        before = after = 0.0
        for question_id, graded in by_question.items():
            card: MemoryCard | None = None
            at_start: MemoryCard | None = None
            for grade, at in sorted(graded, key=lambda g: g[1]):
                card = model.review(question_id, card, grade, at)
                if at < start:
                    at_start = card
            before += model.recall(at_start, start)
            after += model.recall(card, end)
        gains[member_id] = round(100 * (after - before) / len(by_question), 1)
    return gains
