"""The store the service is given: one port per aggregate, each owned by its feature."""

from __future__ import annotations

from typing import Protocol

from bot.away.store import AwayStore
from bot.bank.store import BankStore
from bot.coaching.store import CoachStore
from bot.dashboard.store import DashboardStore
from bot.kernel.members import MemberIds
from bot.kernel.stores import ChannelStore, DeliveryStore, MetaStore
from bot.learning.parameter_store import FittedParameterStore
from bot.learning.store import LearningStore
from bot.member_data.store import MemberDataStore
from bot.notices.store import NoticeStore
from bot.outbox.store import OutboxStore
from bot.pairing.store import PairStore
from bot.practice.store import PracticeStore
from bot.recaps.store import RecapStore
from bot.reminders.store import ReminderStore
from bot.reviews.store import ReviewStore
from bot.rounds.store import AnswerStore, ReportStore, RoundStore
from bot.scheduling.skipped_days import SkippedDayStore
from bot.seasons.store import SeasonStore


class Store(Protocol):
    """Persistence of the quiz, aggregate by aggregate; a backend implements each part.
    Every write is committed before the call returns; every time written is one passed
    in (the injected clock), never the wall clock."""

    @property
    def channels(self) -> ChannelStore:
        """The channels' quiz settings."""
        ...

    @property
    def meta(self) -> MetaStore:
        """Small key/value facts of the installation."""
        ...

    @property
    def members(self) -> MemberIds:
        """Members' store ids, each member created on first sight."""
        ...

    @property
    def rounds(self) -> RoundStore:
        """Rounds and the questions they ask."""
        ...

    @property
    def answers(self) -> AnswerStore:
        """Answers and votes."""
        ...

    @property
    def reports(self) -> ReportStore:
        """Leaderboards, histories and totals."""
        ...

    @property
    def outbox(self) -> OutboxStore:
        """The actions waiting to be sent, and those sent."""
        ...

    @property
    def deliveries(self) -> DeliveryStore:
        """Inbound event ids already handled."""
        ...

    @property
    def learning(self) -> LearningStore:
        """Grades, FSRS cards and goals (the learning loop's own aggregate)."""
        ...

    @property
    def fitted_parameters(self) -> FittedParameterStore:
        """FSRS parameters fitted to each workspace's review log (the learning loop's)."""
        ...

    @property
    def bank(self) -> BankStore:
        """Suggestions, workspace questions, overrides, flags and bonuses (its own aggregate)."""
        ...

    @property
    def recaps(self) -> RecapStore:
        """Recap schedules and recaps (the recap aggregate)."""
        ...

    @property
    def seasons(self) -> SeasonStore:
        """Past seasons, their champions, and the standings' aggregates."""
        ...

    @property
    def practice(self) -> PracticeStore:
        """Private practice sessions (their own aggregate)."""
        ...

    @property
    def reminders(self) -> ReminderStore:
        """Members' daily review reminders (their own aggregate)."""
        ...

    @property
    def member_data(self) -> MemberDataStore:
        """A member's data as a whole: exports and erasure (across the other aggregates)."""
        ...

    @property
    def skipped_days(self) -> SkippedDayStore:
        """The channels' skipped days (holidays)."""
        ...

    @property
    def away(self) -> AwayStore:
        """Members' periods away (their own aggregate)."""
        ...

    @property
    def notices(self) -> NoticeStore:
        """Members who asked to be told when a channel's question posts."""
        ...

    @property
    def reviews(self) -> ReviewStore:
        """Members' reviews of each other's answers, and each round's best answer."""
        ...

    @property
    def coach(self) -> CoachStore:
        """Members' coach opt-outs, the coach's assessments and its daily usage."""
        ...

    @property
    def pairs(self) -> PairStore:
        """Mock-interview opt-ins, weekly pairings, briefs and ratings."""
        ...

    @property
    def dashboard(self) -> DashboardStore:
        """Members who share their rows with the lead, and the lead's page's figures."""
        ...

    async def close(self) -> None: ...
