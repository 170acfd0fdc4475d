"""LearningService: grades, the memory model per member and per channel, and practice.

The core API of the learning loop: a channel's round grades go through
:meth:`LearningService.grade_round`, private practice (or anything outside a round)
through :meth:`LearningService.grade`, and :meth:`LearningService.choose_practice` picks
a member's next practice question with the practice policy.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta

from bot.bank.rotation import eligible_questions
from bot.bank.store import Workspace
from bot.kernel.grades import Grade
from bot.kernel.pair_facts import PairRating
from bot.learning import memory_model
from bot.learning.first_sight import (
    CROWD_REFRESH,
    FirstGradeCount,
    FirstGrades,
    FirstSights,
    first_sights,
)
from bot.learning.memory_model import DEFAULT_MODEL, MemoryCard, MemoryModel
from bot.learning.parameter_fitting import ParameterFitting
from bot.learning.practice_policy import PracticePolicy, PracticeRequest, shipped_policy
from bot.learning.store import GradeDraft, GradeResult, GradeSource, LearningStore
from questions.pack import Difficulty

log = logging.getLogger(__name__)

DEFAULT_HORIZON = timedelta(days=30)  # the target date without a goal
ONE_REVIEW_A_DAY = timedelta(days=1)  # a question graded this recently is not practised again
PACE_WINDOW = timedelta(days=28)  # a member's pace: their grades of the last four weeks...
PACE_MINIMUM = timedelta(days=7)  # ...counted over a week at least, so one busy day is no pace


class NotRevealed(Exception):
    """A round's outline is not revealed yet: there is nothing to grade against."""


@dataclass(frozen=True, slots=True)
class Mastery:
    """What ``/quiz me`` shows of a member's memory."""

    per_topic: dict[str, float]  # mean expected recall (0-1) on ``target``, per topic
    target: datetime  # the member's goal date, or 30 days ahead
    due: int  # graded questions due for review
    next_review: datetime | None  # the earliest due date still ahead
    # the member's learned recall on first sight of a question (see bot.learning.first_sight)
    first_sight: float | None = None


@dataclass(frozen=True, slots=True)
class RoundToGrade:
    """The round a grade is for: the grade needs its question, channel and reveal."""

    round_id: int
    channel_id: int
    question_id: int
    revealed: bool


class LearningService:
    """The learning loop: records grades, rebuilds memory cards, picks practice questions."""

    def __init__(
        self,
        store: LearningStore,
        question_topics: Callable[[], Mapping[int, str]],
        policy: PracticePolicy | None = None,
        graded_topics: Callable[[Workspace | None], Mapping[int, str]] | None = None,
        question_difficulties: Callable[[], Mapping[int, Difficulty | None]] | None = None,
        fitting: ParameterFitting | None = None,
    ) -> None:
        self.store = store
        self.fitting = fitting  # the FSRS parameters fitted to each workspace
        self._question_topics = question_topics  # what private practice offers
        self._question_difficulties = question_difficulties or dict
        # the topic a graded question counts under, as a workspace shows it
        self._graded_topics = graded_topics or (lambda _: question_topics())
        self.policy: PracticePolicy = policy or shipped_policy()
        # every member's first grades, and when they were read (see first_sights)
        self._crowd: tuple[datetime, list[FirstGradeCount]] | None = None
        # each workspace's first sights of each question, as last read
        self._questions_seen: dict[tuple[str, str], tuple[datetime, Mapping[int, FirstGrades]]] = {}
        self._member_workspaces: dict[int, tuple[str, str] | None] = {}  # a member never moves
        self._rebuilds: set[asyncio.Task[int]] = set()
        self._one_rebuild = asyncio.Lock()
        if fitting is not None:
            fitting.on_kept = self.rebuild_in_background

    # the memory model in use (a workspace's kept FSRS fit, else the defaults)

    async def model_for(self, workspace: Workspace | None) -> MemoryModel:
        if workspace is None:
            return DEFAULT_MODEL
        return await self.workspace_model(workspace.platform, workspace.workspace_id)

    async def workspace_model(self, platform: str, workspace: str) -> MemoryModel:
        """The model of the workspace (a :data:`~bot.learning.memory_model.ModelOf`)."""
        if self.fitting is None:
            return DEFAULT_MODEL
        return await self.fitting.model(platform, workspace)

    async def member_model(self, member_id: int) -> MemoryModel:
        """The model of the member's workspace (cached: the lookup is once per member)."""
        if self.fitting is None:
            return DEFAULT_MODEL
        if member_id not in self._member_workspaces:
            self._member_workspaces[member_id] = await self.store.member_workspace(member_id)
        found = self._member_workspaces[member_id]
        return DEFAULT_MODEL if found is None else await self.fitting.model(*found)

    def rebuild_in_background(
        self, platform: str, workspace: str, model: MemoryModel
    ) -> asyncio.Task[int]:
        """Replay the workspace's stored cards under ``model`` (a fit just kept), returning at
        once: a reply never waits for it. A grade recorded meanwhile is built with ``model``
        already, so the rebuilt and the new cards agree. Rebuilds run one at a time, each
        with the model in use when it starts: a fit kept while an older rebuild still runs
        is replayed after it, so the older one never has the last word."""
        task = asyncio.create_task(self._rebuild(platform, workspace, model))
        self._rebuilds.add(task)
        task.add_done_callback(self._rebuilds.discard)
        return task

    async def rebuilds_done(self) -> None:
        """Wait for the background rebuilds under way (tests, and a clean stop)."""
        while self._rebuilds:
            await asyncio.gather(*self._rebuilds)

    async def _rebuild(self, platform: str, workspace: str, model: MemoryModel) -> int:
        async with self._one_rebuild:
            if self.fitting is not None:
                model = await self.fitting.model(platform, workspace)
            return await self._replay(platform, workspace, model)

    async def _replay(self, platform: str, workspace: str, model: MemoryModel) -> int:
        try:
            rebuilt = await self.store.rebuild_cards(
                platform, workspace, member_card=model.member_card, channel_card=model.channel_card
            )
        except Exception:
            log.exception(
                "%s/%s: rebuilding the cards under new parameters failed", platform, workspace
            )
            return 0
        log.info("%s/%s: %d cards rebuilt under the kept parameters", platform, workspace, rebuilt)
        return rebuilt

    # grading

    async def grade(
        self,
        member_id: int,
        question_id: int,
        grade: Grade,
        at: datetime,
        *,
        closes_session: int | None = None,
        rating: PairRating | None = None,
    ) -> GradeResult:
        """A grade outside a channel round (private practice, a mock interview): the
        member's card only.

        ``closes_session``: the practice session the grade ends, closed with it (raises
        :class:`~bot.learning.store.SessionOver`, recording nothing, once it is closed).
        ``rating``: the mock-interview rating the grade comes from, recorded with it (raises
        :class:`~bot.learning.store.RatedAlready`, recording nothing, once it is)."""
        draft = GradeDraft(
            member_id, question_id, grade, at, closes_session=closes_session, rating=rating
        )
        return await self._record(draft)

    async def grade_round(
        self,
        round_: RoundToGrade,
        member_id: int,
        grade: Grade,
        at: datetime,
        *,
        covered: tuple[int, ...] | None = None,
        source: GradeSource = GradeSource.SELF,
    ) -> GradeResult:
        """A member's grade of a revealed round; a second grade replaces the first.

        Raises :class:`NotRevealed` before the reveal. Points are not touched: grades
        belong to the memory model, never to the leaderboard.
        """
        if not round_.revealed:
            raise NotRevealed(round_.round_id)
        draft = GradeDraft(
            member_id,
            round_.question_id,
            grade,
            at,
            round_.round_id,
            round_.channel_id,
            covered=covered,
            source=source,
        )
        return await self._record(draft)

    async def _record(self, draft: GradeDraft) -> GradeResult:
        model = await self.member_model(draft.member_id)
        return await self.store.record_grade(
            draft, member_card=model.member_card, channel_card=model.channel_card
        )

    # goals and practice

    async def set_goal(self, member_id: int, goal: date | None) -> None:
        await self.store.set_goal(member_id, goal)

    async def target(self, member_id: int, at: datetime) -> datetime:
        """The moment mastery is shown for: the member's goal date, or 30 days ahead
        (also once the goal has passed)."""
        return await self.goal_target(member_id, at) or at + DEFAULT_HORIZON

    async def goal_target(self, member_id: int, at: datetime) -> datetime | None:
        """The member's goal date as a moment, while it is ahead; None without one (practice
        then plans for the policy's horizons)."""
        goal = await self.store.goal(member_id)
        if goal is not None:
            moment = datetime.combine(goal, time(), UTC)
            if moment > at:
                return moment
        return None

    async def first_sights(self, member_id: int, at: datetime) -> FirstSights:
        """What the member's prior recall is learned from: their own first grades and their
        workspace's of each question as they stand, every member's as read at most
        :data:`CROWD_REFRESH` before ``at``."""
        cached = self._crowd
        if cached is None or not timedelta(0) <= at - cached[0] < CROWD_REFRESH:
            cached = self._crowd = (at, await self.store.first_grades())
        own = await self.store.first_grades(member_id)
        return first_sights(own, cached[1], await self._question_first_grades(member_id, own, at))

    async def _question_first_grades(
        self, member_id: int, own: Sequence[FirstGradeCount], at: datetime
    ) -> Mapping[int, FirstGrades]:
        """The member's workspace's first sights of each question, read as the crowd's are:
        at most every :data:`CROWD_REFRESH` per workspace (the read scans every grade)."""
        place = (own[0].platform, own[0].workspace) if own else None
        cached = self._questions_seen.get(place) if place is not None else None
        if cached is None or not timedelta(0) <= at - cached[0] < CROWD_REFRESH:
            cached = (at, await self.store.question_first_grades(member_id))
            if place is not None:
                self._questions_seen[place] = cached
        return cached[1]

    async def prior_recall(self, member_id: int, at: datetime, topic: str | None = None) -> float:
        """The member's learned recall on first sight of a question of ``topic``."""
        return (await self.first_sights(member_id, at)).prior(topic)

    async def choose_practice(
        self,
        member_id: int,
        at: datetime,
        *,
        topic: str | None = None,
        topics: Collection[str] | None = None,
        difficulty: Difficulty | None = None,
    ) -> int | None:
        """The member's next practice question of ``topic`` (or of ``topics``; None: all)
        and of ``difficulty`` (None: any), chosen by the policy; a question graded in the
        last day is not offered again. None when no question is eligible."""
        cards = await self.store.member_cards(member_id)
        target = await self.goal_target(member_id, at)
        pace = await self.pace(member_id, at)
        sights = await self.first_sights(member_id, at)
        # Filtering hundreds of questions and forecasting each is pure CPU (milliseconds to
        # tens of them): in a worker thread, other channels' events go on meanwhile.
        levels = None if difficulty is None else self._question_difficulties()
        question_topics = self._question_topics()
        eligible = eligible_questions(
            question_topics, topics, topic, difficulty=difficulty, difficulties=levels
        )
        unseen = {q: question_topics[q] for q in eligible if q not in cards}
        model = await self.member_model(member_id)
        priors = sights.priors(unseen)
        request = PracticeRequest(member_id, [], cards, at, target, pace, priors, model)
        return await asyncio.to_thread(self._choose, eligible, request)

    def _choose(self, eligible: list[int], request: PracticeRequest) -> int | None:
        cards, at = request.cards, request.now
        candidates = [
            q
            for q in eligible
            if not memory_model.reviewed_within(cards.get(q), at, ONE_REVIEW_A_DAY)
        ]
        return self.policy.choose(replace(request, candidates=candidates))

    async def pace(self, member_id: int, at: datetime) -> float:
        """The member's grades a day (practice and channel rounds; a changed grade counts
        once) over the last four weeks, or since their first grade, and at least a week."""
        grades = await self.store.recent_grades(member_id, at - PACE_WINDOW, at)
        if grades.first is None:
            return 0.0
        # From a first grade inside the window on, every grade is in the window: the count
        # of the window's grades is the count since the first.
        since = max(at - PACE_WINDOW, grades.first)
        return grades.recent / (max(at - since, PACE_MINIMUM) / ONE_REVIEW_A_DAY)

    # reports

    async def mastery(
        self, member_id: int, at: datetime, workspace: Workspace | None = None
    ) -> Mastery:
        cards = await self.store.member_cards(member_id)
        upcoming = [c.due for c in cards.values() if c.due > at]
        target = await self.target(member_id, at)
        model = await self.member_model(member_id)
        return Mastery(
            per_topic=self._per_topic(model, cards, target, workspace),
            target=target,
            due=sum(1 for c in cards.values() if c.due <= at),
            next_review=min(upcoming, default=None),
            first_sight=await self.prior_recall(member_id, at),
        )

    async def memory_parameters(self, workspace: Workspace) -> str | None:
        """Which FSRS parameters the workspace's memory model has, and since when; None
        where parameters are not fitted here."""
        if self.fitting is None:
            return None
        in_use = await self.fitting.in_use(workspace.platform, workspace.workspace_id)
        return in_use.describe()

    async def weakest_topics(
        self, channel_id: int, at: datetime, count: int = 3, workspace: Workspace | None = None
    ) -> list[tuple[str, float]]:
        """The channel's topics of lowest expected recall 30 days ahead, weakest first."""
        per_topic = await self.channel_mastery(channel_id, at, workspace)
        return sorted(per_topic.items(), key=lambda item: (item[1], item[0]))[:count]

    async def channel_mastery(
        self, channel_id: int, at: datetime, workspace: Workspace | None = None
    ) -> dict[str, float]:
        """The channel's mean expected recall per topic 30 days after ``at``, by its own
        cards (right after a grade, recall "now" is 100% whatever the grade)."""
        cards = await self.store.channel_cards(channel_id)
        model = await self.model_for(workspace)
        return self._per_topic(model, cards, at + DEFAULT_HORIZON, workspace)

    async def channel_due(
        self, channel_id: int, start: datetime, end: datetime, workspace: Workspace | None = None
    ) -> dict[str, int]:
        """How many of the channel's questions come due in [start, end), per topic."""
        topics = self._graded_topics(workspace)
        due: dict[str, int] = defaultdict(int)
        for question_id, card in (await self.store.channel_cards(channel_id)).items():
            topic = topics.get(question_id)
            if topic is not None and start <= card.due < end:
                due[topic] += 1
        return dict(sorted(due.items()))

    async def member_mastery(
        self, member_id: int, at: datetime, workspace: Workspace | None = None
    ) -> dict[str, float]:
        """The member's mean expected recall per topic on their target date."""
        target = await self.target(member_id, at)
        cards = await self.store.member_cards(member_id)
        return self._per_topic(await self.member_model(member_id), cards, target, workspace)

    async def members_recall(
        self,
        member_ids: Collection[int],
        moments: Sequence[datetime],
        workspace: Workspace | None = None,
    ) -> list[float | None]:
        """For each moment, the mean expected recall at that moment of every question the
        members had graded by then: each member's cards rebuilt from their grade log up to
        the moment (a grade as it stands now, dated at the review it corrects)."""
        topics = self._graded_topics(workspace)
        logs = [
            [
                (q, grade, at)
                for q, grade, at, replaced in await self.store.grade_log(m)
                if not replaced
            ]
            for m in sorted(member_ids)
        ]
        model = await self.model_for(workspace)
        # replaying a few hundred grades is pure CPU: off the event loop
        return await asyncio.to_thread(_recall_at_moments, model, logs, topics, moments)

    def _per_topic(
        self,
        model: MemoryModel,
        cards: Mapping[int, MemoryCard],
        target: datetime,
        workspace: Workspace | None,
    ) -> dict[str, float]:
        topics = self._graded_topics(workspace)
        recalls: dict[str, list[float]] = defaultdict(list)
        for question_id, card in cards.items():
            topic = topics.get(question_id)
            if topic is not None:
                recalls[topic].append(model.recall(card, target))
        return {t: sum(r) / len(r) for t, r in sorted(recalls.items())}


def _recall_at_moments(
    model: MemoryModel,
    logs: Sequence[Sequence[tuple[int, Grade, datetime]]],
    topics: Mapping[int, str],
    moments: Sequence[datetime],
) -> list[float | None]:
    """The mean recall at each moment (ascending) of the cards the logs (oldest first) had
    built by then, one log per member; only questions with a topic in ``topics``."""
    totals = [0.0] * len(moments)
    counts = [0] * len(moments)
    for log in logs:
        graded = [entry for entry in log if entry[0] in topics]
        cards: dict[int, MemoryCard] = {}
        applied = 0
        for index, moment in enumerate(moments):
            while applied < len(graded) and graded[applied][2] <= moment:
                question_id, grade, at = graded[applied]
                cards[question_id] = model.review(question_id, cards.get(question_id), grade, at)
                applied += 1
            totals[index] += sum(model.recall(card, moment) for card in cards.values())
            counts[index] += len(cards)
    return [total / count if count else None for total, count in zip(totals, counts, strict=True)]
