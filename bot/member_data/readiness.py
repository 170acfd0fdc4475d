"""``/quiz stats readiness``: for a lead, each member with a goal date and their expected
recall on it, weakest topics first. Members without a goal are not listed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time

from bot.bank.store import Workspace
from bot.kernel.cards import info, percent, plural
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card, Field
from bot.learning.memory_model import ModelOf, defaults_everywhere
from bot.learning.store import LearningStore
from bot.member_data.store import MemberDataStore, MemberGoal

WEAKEST_SHOWN = 3


@dataclass(frozen=True, slots=True)
class MemberReadiness:
    goal: MemberGoal
    recall: float | None  # mean expected recall of their graded questions on the goal date
    weakest: list[tuple[str, float]]  # per topic, weakest first


class Readiness:
    """Reads each goal and forecasts the member's recall on it."""

    def __init__(
        self,
        data: MemberDataStore,
        learning: LearningStore,
        topics: Callable[[Workspace | None], Mapping[int, str]],
        models: ModelOf = defaults_everywhere,
    ) -> None:
        self._data = data
        self._learning = learning
        self._topics = topics
        self._models = models

    async def card(self, channel: ChannelRef, workspace: Workspace, now: datetime) -> Card:
        """The lead's view of the members' readiness on their goal dates."""
        return readiness_card(await self.members(channel, workspace), now)

    async def members(self, channel: ChannelRef, workspace: Workspace) -> list[MemberReadiness]:
        goals = await self._data.workspace_goals(channel.platform, channel.workspace)
        topics = self._topics(workspace)
        model = await self._models(workspace.platform, workspace.workspace_id)
        found = []
        for goal in goals:
            moment = datetime.combine(goal.goal, time(), UTC)
            cards = await self._learning.member_cards(goal.member_id)
            per_topic: dict[str, list[float]] = {}
            for question_id, card in cards.items():
                topic = topics.get(question_id)
                if topic is not None:
                    per_topic.setdefault(topic, []).append(model.recall(card, moment))
            recalls = [r for rs in per_topic.values() for r in rs]
            means = {t: sum(rs) / len(rs) for t, rs in per_topic.items()}
            found.append(
                MemberReadiness(
                    goal,
                    sum(recalls) / len(recalls) if recalls else None,
                    sorted(means.items(), key=lambda item: (item[1], item[0])),
                )
            )
        return found


def readiness_card(members: list[MemberReadiness], now: datetime) -> Card:
    if not members:
        return info(
            "Readiness: no goals set",
            "No member has set a goal date yet: members set one with `/quiz goal YYYY-MM-DD`.",
        )
    fields = []
    for member in members:
        goal = member.goal
        days = (goal.goal - now.date()).days
        when = f"{goal.goal:%a %d %b %Y}, " + (
            f"in {plural(days, 'day')}" if days >= 0 else "passed"
        )
        if member.recall is None:
            value = f"{when}: nothing graded yet"
        else:
            weakest = ", ".join(f"{t} {percent(r)}" for t, r in member.weakest[:WEAKEST_SHOWN])
            value = f"{when}: expected recall {percent(member.recall)}; weakest: {weakest}"
        fields.append(Field(goal.name or goal.member, value))
    return Card(
        title=f"Readiness: {plural(len(members), 'member')} with a goal date",
        body="Expected recall on each goal date, from the member's own grades.",
        fields=tuple(fields),
    )
