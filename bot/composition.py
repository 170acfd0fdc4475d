"""The features' shared services, built once and offered to every feature's build.

:class:`Core` is the one value each face's ``build`` is given (see :mod:`bot.feature`);
each face names, in a Protocol of its own, the few members of it that it uses, and mypy
checks that :class:`Core` offers them. :mod:`bot.service` builds it and loops over
:data:`bot.features.FEATURES`.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date

from bot.away.periods import is_away as away_on
from bot.bank.catalog import WorkspaceCatalog
from bot.bank.moderation_desk import ModerationDesk
from bot.blind.answers import BlindAnswers
from bot.blind.performer import BlindAnswerPosts
from bot.channels.editor import ChannelSettingsEditor
from bot.coaching.assessor import CoachAssessor
from bot.coaching.consent import CoachSwitch
from bot.coaching.metrics import CoachMetrics, NoCoachMetrics
from bot.coaching.setup import CoachSetup
from bot.coaching.spending import CoachSpendingReport
from bot.coaching.stand_in import CoachStandIn
from bot.dashboard.pages import DashboardPages, DashboardSettings
from bot.kernel.clock import Clock
from bot.kernel.coach_consent import CoachConsent
from bot.kernel.config import QuizConfig
from bot.kernel.dashboard_views import DashboardPage, DashboardSectionSource
from bot.kernel.metrics import Metrics
from bot.kernel.models import ChannelSettings
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.own_views import MeSectionSource, Ranked, SettingOnPage
from bot.kernel.platform import Platform
from bot.kernel.refs import ChannelRef
from bot.learning.goal_hint import GoalHint
from bot.learning.grading import RoundGrading
from bot.learning.parameter_fitting import ParameterFitting
from bot.learning.service import LearningService
from bot.member_data.home import HomePages
from bot.member_data.readiness import Readiness
from bot.member_data.service import MemberDataService
from bot.notices.performers import NoticePerformers
from bot.notices.sender import NoticeSender
from bot.outbox.worker import OutboxWorker
from bot.pairing.weekly import IsAway, WeeklyPairings
from bot.practice.sessions import PracticeSessions
from bot.recaps.weekly import WeeklyRecaps
from bot.reminders.daily import DailyReminders
from bot.reviews.peer import PeerReviews
from bot.rounds.engine import QuizEngine
from bot.rounds.performers import BeforeOutline
from bot.rounds.timed_steps import TimedSteps
from bot.store import Store
from questions.catalog import Catalog
from questions.pack import Question


@dataclass(frozen=True, slots=True)
class Core:
    """What the features are built from: the kernel's collaborators and the services more
    than one feature uses."""

    store: Store
    clock: Clock
    # the questions of each workspace (bundled, own, overridden), kept current by the engine
    questions: WorkspaceCatalog
    catalog: Catalog
    config: QuizConfig
    platforms: Mapping[str, Platform]
    outbox: OutboxWorker
    engine: QuizEngine
    # the outbox queue a feature hands its own actions to (the engine offers it)
    outbox_queue: OutboxQueue
    # the round engine's two services other features use, offered on their own
    question_for: Callable[[ChannelRef, int], Question | None]
    retime_open_round: Callable[[ChannelSettings], Awaitable[None]]
    learning: LearningService
    grading: RoundGrading
    readiness: Readiness
    recaps: WeeklyRecaps
    pairings: WeeklyPairings
    practice: PracticeSessions
    reminders: DailyReminders
    desk: ModerationDesk
    blind: BlindAnswers
    member_data: MemberDataService
    home: HomePages
    peer_reviews: PeerReviews
    notices: NoticePerformers
    timed: TimedSteps
    before_outline: BeforeOutline
    settings: ChannelSettingsEditor
    # what the features add to /quiz me and to a member's page (collected once all are built)
    me_sections: Ranked[MeSectionSource]
    settings_on_page: Ranked[SettingOnPage]
    # what the features add to each browser page (``/quiz dashboard``), page by page
    dashboard_sections: Mapping[DashboardPage, Ranked[DashboardSectionSource]]
    # the browser pages behind /quiz dashboard's links (the web server serves them)
    dashboard: DashboardPages
    # plans a channel's scheduled job of that kind again
    replan: Callable[[str, ChannelSettings], None]
    # the answer coach: the operator's endpoint (None: not configured, nothing is sent)
    coach_setup: CoachSetup | None
    coach_assessor: CoachAssessor
    coach_consent: CoachConsent
    coach_metrics: CoachMetrics
    coach_spending: CoachSpendingReport


def build_core(
    *,
    store: Store,
    platforms: Mapping[str, Platform],
    catalog: Catalog,
    clock: Clock,
    config: QuizConfig,
    rng: random.Random,
    metrics: Metrics,
    outbox: OutboxWorker,
    channel_changed: Callable[[ChannelSettings], None],
    replan: Callable[[str, ChannelSettings], None],
    is_away: IsAway | None = None,
    coach: CoachSetup | None = None,
) -> Core:
    engine = QuizEngine(
        store=store,
        catalog=catalog,
        clock=clock,
        config=config,
        rng=rng,
        wake_outbox=outbox.wake,
        hand_over=outbox.hand_over,
        metrics=metrics,
    )
    parameter_fitting = ParameterFitting(store.fitted_parameters, clock)
    learning = LearningService(
        store.learning,
        engine.question_topics,
        graded_topics=engine.questions.graded_topics,
        question_difficulties=engine.question_difficulties,
        fitting=parameter_fitting,
    )
    recaps = WeeklyRecaps(
        recaps=store.recaps,
        channels=store.channels,
        meta=store.meta,
        memory=learning,
        skipped_days=store.skipped_days,
        away=store.away,
        clock=clock,
        wake_outbox=outbox.wake,
    )

    async def member_away(member_id: int, day: date) -> bool:
        """Whether the member (by store id) is away on ``day`` (``/quiz away``)."""
        return away_on(await store.away.until_for_member(member_id), day)

    pairings = WeeklyPairings(
        pairs=store.pairs,
        channels=store.channels,
        learning=learning,
        question_for=engine.question_for,
        question_topics=engine.question_topics,
        outbox=engine,
        clock=clock,
        wake_outbox=outbox.wake,
        is_away=is_away or member_away,
    )
    coach_metrics = metrics if isinstance(metrics, CoachMetrics) else NoCoachMetrics()
    coach_assessor = CoachAssessor(
        setup=coach,
        coach=store.coach,
        answers=store.answers,
        rounds=store.rounds,
        outbox=engine,
        question_for=engine.question_for,
        clock=clock,
        metrics=coach_metrics,
        stand_in=CoachStandIn(store.coach, learning, clock),
    )
    practice = PracticeSessions(
        engine,
        outbox=engine,
        sessions=store.practice,
        members=store.members,
        deliveries=store.deliveries,
        learning=learning,
        clock=clock,
        default_timezone=config.default_timezone,
        goal_hint=GoalHint(store.meta),
        coach=coach_assessor.practice,
    )
    reminders = DailyReminders(
        reminders=store.reminders,
        learning=store.learning,
        away=store.away,
        clock=clock,
        outbox=engine,
    )
    grading = RoundGrading(learning, store.members, clock)
    settings_on_page: Ranked[SettingOnPage] = Ranked()
    timed = TimedSteps(store.skipped_days)
    sender = NoticeSender(
        notices=store.notices, answers=store.answers, outbox=store.outbox, away=store.away
    )
    dashboard_sections: dict[DashboardPage, Ranked[DashboardSectionSource]] = {
        page: Ranked() for page in DashboardPage
    }
    return Core(
        store=store,
        clock=clock,
        questions=engine.questions,
        catalog=catalog,
        config=config,
        platforms=platforms,
        outbox=outbox,
        engine=engine,
        outbox_queue=engine,
        question_for=engine.question_for,
        retime_open_round=engine.retime_open_round,
        learning=learning,
        grading=grading,
        readiness=Readiness(
            store.member_data,
            store.learning,
            engine.questions.graded_topics,
            learning.workspace_model,
        ),
        recaps=recaps,
        pairings=pairings,
        practice=practice,
        reminders=reminders,
        desk=ModerationDesk(
            engine,
            questions=engine.questions,
            clock=clock,
            scoring=config.scoring,
            bank=store.bank,
            rounds=store.rounds,
            members=store.members,
            channels=store.channels,
        ),
        blind=BlindAnswers(
            engine,
            store.rounds,
            store.answers,
            members=store.members,
            outbox=engine,
            clock=clock,
            scoring=config.scoring,
            metrics=metrics,
            recorded=coach_assessor.blind_answer_recorded,
        ),
        member_data=MemberDataService(
            store.member_data,
            store.learning,
            engine.question_for,
            lambda member_id: reminders.stored(member_id, None),
            # an erased member's reviews leave the team's log: the parameters are fitted again
            after_erasure=lambda member: parameter_fitting.fit_in_background(
                member.platform, member.workspace, "erasure"
            ),
        ),
        home=HomePages(
            data=store.member_data,
            learning=learning,
            channels=store.channels,
            rounds=store.rounds,
            reports=store.reports,
            recaps=recaps,
            away=store.away,
            clock=clock,
            settings_on_page=settings_on_page,
            default_timezone=config.default_timezone,
        ),
        peer_reviews=PeerReviews(
            reviews=store.reviews,
            answers=store.answers,
            rounds=store.rounds,
            learning=learning,
            grading=grading,
            members=store.members,
            question_of=engine.question_for,
            wake_outbox=outbox.wake,
            clock=clock,
            channel_of=engine.channel,
        ),
        notices=NoticePerformers(sender, timed, clock, outbox.wake),
        timed=timed,
        before_outline=BlindAnswerPosts(store.answers, config.vote_emoji).post_waiting,
        settings=ChannelSettingsEditor(engine.save_channel, channel_changed),
        me_sections=Ranked(),
        settings_on_page=settings_on_page,
        dashboard_sections=dashboard_sections,
        dashboard=DashboardPages(
            store=store.dashboard,
            channels=store.channels,
            members=store.member_data,
            meta=store.meta,
            sections=dashboard_sections,
            clock=clock,
            settings=DashboardSettings(
                config.dashboard_url, config.dashboard_secret, config.dashboard_link_minutes
            ),
        ),
        replan=replan,
        coach_setup=coach,
        coach_assessor=coach_assessor,
        coach_consent=CoachSwitch(coach, engine, clock),
        coach_metrics=coach_metrics,
        coach_spending=CoachSpendingReport(store.coach, coach),
    )
