"""The learning loop on simulated learners: does practice chosen by the shipped policy help?

Learners share one channel (ten to a channel, one channel per seed) on a synthetic bank
of 30, 60 and 120 questions. Each learner's true memory follows the FSRS forgetting curve
with hidden parameters of their own (initial stabilities, stability growth and decay
drawn from a seeded source) and a recall on first sight of a question never seen drawn
around a level of their own, itself drawn from 0.05-0.6: a team new to the field to a
team of seniors. The policy is not told it: it learns it from the grades. On weekdays
each learner answers the channel's question with probability 0.7, and on 70% of weekdays
practises 2 questions more. Answers and grades are honest, with noise.

Everything runs through the real core: ``QuizService`` on a SQLite store with a
FakePlatform and an injected clock; rounds come from ``/quiz now``, answers are thread
replies, the reveal is a 💡 reaction, channel grades are ``/quiz grade`` commands and
practice is ``LearningService.choose_practice`` then ``LearningService.grade``. Set-ups,
with the same learners, activity and seeds:

    channel-only   the channel question, no practice
    round-robin    plus practice in bank order
    current        plus practice by the rule as shipped before: the planned forecast with
                   a constant prior of 0.2, aiming 30 days ahead without a goal (kept
                   here as the shipped class with those settings, so both run in the
                   same bench)
    planned        plus practice by ``PlannedRecallGain``: the learned prior, the goal
                   date or the no-goal horizons, counting the practice still to come
    one-review     plus practice by ``ExpectedRecallGain``: the same without the practice
                   still to come

each in two settings: "goal", every learner's goal set with ``/quiz goal`` to the
evaluation day (day 90), recall measured that day; "no goal", no goal set, recall
measured on days 30, 60, 90 and 180 of one run. Round-robin and channel-only ignore goals:
one run of theirs serves both settings.

It prints, per setting, bank and day, the mean over learners and bank questions of the
probability of recalling the answer per set-up, and the ratios of planned and one-review
to round-robin and to the current rule, and of planned to one-review: each the mean over
learners of that learner's ratio, ± its standard error. The line ``shipped:`` names the
set-up ``LearningService`` ships with; the targets are checked on it. Last, one line:
``learning: shipped B channel-only A round-robin C vs-channel X vs-round-robin Y (...)``,
the recall on the goal date (60 questions, or the first bank run) and the learning issue's
targets there, vs-channel >= 1.3 and vs-round-robin >= 1.02, each met or MISSED; then each
setting's targets (#28): every ratio to round-robin >= 1.02 (>= 1.03 at 60 questions with
the goal), none below the current rule by more than its standard error, how many settings
meet them and which do not.

Three more set-ups are told what only the simulation knows, to bound what a policy could
reach: ``--oracle`` (``TrueMemoryOracle``: each learner's true memory, the greedy best
review for the measurements still to come), ``--true-level`` (the shipped policy told
each learner's true first-sight level instead of learning it) and ``--level-oracle``
(``TrueLevelOracle``), what grades could at best teach: the oracle's choice on the true
memory of every question seen, but each question never seen at the learner's true level,
not its own recall (which nothing before its first sight reveals); it aims at the
measurements still to come (``level-oracle``) and, as a policy without a goal must, a
rolling 7 and 14 days ahead (``level-oracle-7d``, ``level-oracle-14d``, without a goal
only). With any of them, or with ``--only``, a second table gives every set-up that ran
against round-robin.

    PYTHONPATH=. python bench/learning.py [--seeds 4] [--first-seed 1] [--learners 10]
        [--banks 30,60,120] [--jobs 2] [--quick] [--no-goal-horizons 30]
        [--only-no-goal] [--constant-prior] [--goal-day 90] [--no-goal-days 30,60,90,180]
        [--oracle] [--true-level] [--level-oracle] [--only planned,oracle]

``--team`` runs the team population instead (``bench/team_population.py``: question
difficulty shared by a team, teams of 4, 8 and 16; ``--quick``, one team of 8 on 60
questions; ``--kept``, first-sight knowledge kept after the first review; ``--team-out
FILE`` appends each run to FILE and ``--team-report FILE`` tables what it holds), then the
forecast's held-out log loss with FSRS's default and with fitted parameters.

``--quick``: two seeds and the 60-question bank only. ``--no-goal-horizons``: the
policies' horizons without a goal, to compare choices of them (``--only-no-goal`` runs only
that setting's set-ups); ``--constant-prior``: planned and one-review told nothing of the
learned prior, to tell its part from the horizons'. ``--only``: those set-ups and
round-robin, and only the second table (to explore one set-up at a time).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from bot.kernel.config import QuizConfig
from bot.kernel.events import Command, Reaction, Reply
from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.learning.practice_policy import (
    NO_GOAL_HORIZONS,
    ExpectedRecallGain,
    PlannedRecallGain,
    PracticePolicy,
    PracticeRequest,
    shipped_policy,
)
from bot.learning.service import LearningService
from bot.service import QuizService
from questions.catalog import Catalog
from questions.pack import Pack
from storage.sqlite.store import SqliteStore
from tests.fakes import FakeClock, FakePlatform

START = datetime(2027, 1, 4, 8, 0, tzinfo=UTC)  # a Monday
CHANNEL = ChannelRef("fake", "team", "C1", "practice")
TOPICS = ("gpu", "networking", "memory", "inference", "training", "storage")
ANSWER_CHANCE = 0.7
PRACTICE_DAY_CHANCE = 0.7
PRACTICE_PER_DAY = 2
GRADE_NOISE = 0.2  # chance a grade is one step off the learner's true rating
PRIOR_LEVELS = (0.05, 0.6)  # a learner's recall on first sight is drawn around one of these
PRIOR_SPREAD = 0.25  # each question's: the learner's level times 1 +- this
GOAL_DAY = 90
NO_GOAL_DAYS = (30, 60, 90, 180)
BANKS = (30, 60, 120)
TARGET_VS_CHANNEL = 1.3  # the learning issue's (#12), on the goal date
TARGET_VS_ROUND_ROBIN = 1.02
TARGET_VS_ROUND_ROBIN_GOAL_60 = 1.03
# the days ahead the level oracle also aims at rolling, as a policy without a goal must
LEVEL_ORACLE_ROLLING = (7.0, 14.0)
# the rule as shipped before: a constant prior (DEFAULT_PRIOR_RECALL, 0.2)...
CURRENT_NO_GOAL = timedelta(days=30)  # ...and 30 days ahead without a goal


def synthetic_pack(questions: int) -> Pack:
    return Pack.model_validate(
        {
            "id": "bench",
            "title": "Synthetic bench pack",
            "questions": [
                {
                    "id": f"q-{n}",
                    "topic": TOPICS[n % len(TOPICS)],
                    "question": f"Question {n}?",
                    "outline": f"Outline {n}.",
                    "follow_ups": [f"Follow-up {n}?"],
                }
                for n in range(questions)
            ],
        }
    )


# The learners' true memory


def true_rating(chance: float) -> Rating:
    """How a recalled answer reviews the true memory: by how sure the recall was."""
    if chance < 0.5:
        return Rating.Hard
    if chance < 0.9:
        return Rating.Good
    return Rating.Easy


@dataclass
class Learner:
    name: str
    memory: Scheduler  # FSRS with this learner's hidden parameters
    priors: dict[int, float]  # recall of a question never seen, by bank index
    cards: dict[int, Card] = field(default_factory=dict)  # true memory, by bank index

    def recall(self, question: int, at: datetime) -> float:
        card = self.cards.get(question)
        if card is None:
            return self.priors[question]
        return float(self.memory.get_card_retrievability(card, at))

    def mean_recall(self, questions: int, at: datetime) -> float:
        return statistics.fmean(self.recall(q, at) for q in range(questions))

    def attempt(self, question: int, at: datetime, rng: random.Random) -> Grade:
        """Try to recall the answer, see the outline (a review of the true memory) and
        return the grade the learner gives themselves: honest, with noise."""
        chance = self.recall(question, at)
        rating = Rating.Again if rng.random() >= chance else true_rating(chance)
        card = self.cards.get(question) or Card(card_id=question + 1, due=at)
        self.cards[question], _ = self.memory.review_card(card, rating, at)
        given = int(rating)
        if rng.random() < GRADE_NOISE:
            given = min(4, max(1, given + rng.choice((-1, 1))))
        return Grade(given)


def learners(seed: int, count: int, questions: int) -> list[Learner]:
    rng = random.Random(f"learners-{seed}")
    made = []
    for n in range(count):
        weights = list(DEFAULT_PARAMETERS)
        scale = rng.uniform(0.5, 2.0)  # how fast a first exposure sticks
        for index in range(4):
            weights[index] = min(100.0, weights[index] * scale)
        weights[8] = min(4.5, max(0.0, weights[8] + rng.uniform(-0.3, 0.3)))  # growth
        weights[20] = rng.uniform(0.12, 0.25)  # decay: the shape of the forgetting curve
        memory = Scheduler(
            parameters=weights, learning_steps=(), relearning_steps=(), enable_fuzzing=False
        )
        level = rng.uniform(*PRIOR_LEVELS)
        priors = {
            q: level * rng.uniform(1 - PRIOR_SPREAD, 1 + PRIOR_SPREAD) for q in range(questions)
        }
        made.append(Learner(f"learner{n}", memory, priors))
    return made


@dataclass(frozen=True)
class Day:
    """What each learner does on one weekday (the same in every set-up)."""

    at: datetime
    answers: tuple[bool, ...]
    practises: tuple[bool, ...]


def activity(seed: int, count: int, days: int) -> list[Day]:
    rng = random.Random(f"activity-{seed}")
    weekdays = []
    for offset in range(days):
        at = START + timedelta(days=offset)
        answers = tuple(rng.random() < ANSWER_CHANCE for _ in range(count))
        practises = tuple(rng.random() < PRACTICE_DAY_CHANCE for _ in range(count))
        if at.weekday() < 5:
            weekdays.append(Day(at, answers, practises))
    return weekdays


# The practice policies compared with the shipped one


class RoundRobin:
    """Practice in bank order, each learner where they left off."""

    def __init__(self) -> None:
        self._last: dict[int, int] = {}

    def choose(self, request: PracticeRequest) -> int | None:
        if not request.candidates:
            return None
        last = self._last.get(request.member_id, -1)
        later = [q for q in request.candidates if q > last]
        chosen = later[0] if later else request.candidates[0]
        self._last[request.member_id] = chosen
        return chosen


@dataclass(frozen=True, slots=True)
class ConstantPrior:
    """A policy told nothing of the learned prior: every never-graded question at 0.2 (to
    tell the prior's part of a result from the horizons')."""

    policy: PracticePolicy

    def choose(self, request: PracticeRequest) -> int | None:
        return self.policy.choose(replace(request, priors={}))


def constant_prior(make: Callable[[], PracticePolicy]) -> PracticePolicy:
    return ConstantPrior(make())


@dataclass(frozen=True, slots=True)
class CurrentRule:
    """The rule as shipped before the prior was learned: the planned forecast with every
    never-graded question recalled with 0.2, aiming 30 days ahead without a goal. The
    shipped class with those two settings is that rule operation for operation (the same
    forecast, share and ties), which keeps the baseline on the public API."""

    def choose(self, request: PracticeRequest) -> int | None:
        rule = PlannedRecallGain((CURRENT_NO_GOAL / timedelta(days=1),))
        return rule.choose(replace(request, priors={}))


@dataclass(frozen=True)
class Truth:
    """What the simulation knows and a deployment does not: for set-ups that are bounds
    or ablations, not policies."""

    learners: Mapping[int, Learner]  # by member id
    bank_index: Mapping[int, int]  # question id -> bank index
    measured: tuple[datetime, ...]  # the moments recall is measured at, in order

    def measured_ahead(self, now: datetime) -> list[datetime]:
        """The measurements still to come (the last one once all are past)."""
        return [at for at in self.measured if at > now] or [self.measured[-1]]


@dataclass(frozen=True)
class TrueMemoryOracle:
    """A bound, not a policy a deployment could run: it sees each learner's true memory
    (their hidden parameters, their cards, their first-sight recall of each question) and
    picks the question whose review now most raises their true expected recall, averaged
    over the measurements still to come, as if nothing were practised after it (greedy:
    a planning policy may beat it, as the shipped one does at 30 questions)."""

    truth: Truth

    def choose(self, request: PracticeRequest) -> int | None:
        return best_true_review(self.truth, request, self.truth.measured_ahead(request.now))


def best_true_review(
    truth: Truth,
    request: PracticeRequest,
    ahead: Sequence[datetime],
    first_sight: Callable[[int], float | None] | None = None,
) -> int | None:
    """The candidate of largest :func:`true_gain` (ties: the earlier); None without one.
    ``first_sight``: by question id, the recall taken for a question the learner never saw
    (None: its own)."""
    learner = truth.learners[request.member_id]
    best: tuple[float, int] | None = None
    for question_id in request.candidates:
        question = truth.bank_index[question_id]
        assumed = None if first_sight is None else first_sight(question_id)
        gain = true_gain(learner, question, request.now, ahead, assumed)
        if best is None or gain > best[0]:
            best = (gain, question_id)
    return None if best is None else best[1]


def true_gain(
    learner: Learner,
    question: int,
    now: datetime,
    ahead: Sequence[datetime],
    first_sight: float | None = None,
) -> float:
    """How much a review now raises the learner's true recall of ``question``, averaged
    over ``ahead``: recalled (then rated as ``Learner.attempt`` rates it) or missed.
    ``first_sight``: the recall taken for the question if never seen, instead of its own."""
    card = learner.cards.get(question)

    def recall(at: datetime) -> float:
        if card is None and first_sight is not None:
            return first_sight
        return learner.recall(question, at)

    chance = recall(now)
    before = card or Card(card_id=question + 1, due=now)
    recalled, _ = learner.memory.review_card(before, true_rating(chance), now)
    missed, _ = learner.memory.review_card(before, Rating.Again, now)
    retrievability = learner.memory.get_card_retrievability
    total = 0.0
    for at in ahead:
        after = chance * retrievability(recalled, at) + (1 - chance) * retrievability(missed, at)
        total += after - recall(at)
    return total / len(ahead)


@dataclass(frozen=True)
class TrueLevelOracle:
    """What grades could teach at best: the oracle's greedy choice on the learner's true
    memory of every question they have seen, with each question never seen recalled at
    the learner's true first-sight level, as no policy can know one unseen question's own
    recall from another's (greedy, as the oracle: a measured ceiling, not a strict bound).
    It aims at the measurements still to come, or with ``days_ahead`` a rolling that many
    days ahead, as a policy that is not told when recall is measured must."""

    truth: Truth
    days_ahead: float | None = None

    def choose(self, request: PracticeRequest) -> int | None:
        learner = self.truth.learners[request.member_id]
        if self.days_ahead is None:
            ahead = self.truth.measured_ahead(request.now)
        else:
            ahead = [request.now + timedelta(days=self.days_ahead)]
        level = statistics.fmean(learner.priors.values())  # what the learner's grades estimate
        return best_true_review(self.truth, request, ahead, first_sight=lambda _: level)


@dataclass(frozen=True)
class TrueLevel:
    """An ablation: the shipped policy told each learner's true first-sight level (the
    mean of their questions' first-sight recall) instead of the learned prior: what a
    perfect estimate of the level, with no per-question knowledge, would be worth."""

    make: Callable[[], PracticePolicy]
    truth: Truth

    def choose(self, request: PracticeRequest) -> int | None:
        learner = self.truth.learners[request.member_id]
        level = statistics.fmean(learner.priors.values())
        return self.make().choose(replace(request, priors=dict.fromkeys(request.priors, level)))


@dataclass(frozen=True)
class Setup:
    name: str
    policy: Callable[[], PracticePolicy] | None  # None: no practice
    goal: bool  # whether learners set their goal to the evaluation day
    days: tuple[int, ...]  # the days recall is measured on
    # a bound or ablation told the simulation's truth (then ``policy`` is unused)
    told: Callable[[Truth], PracticePolicy] | None = None


def setups(
    horizons: tuple[float, ...],
    only_no_goal: bool,
    goal_day: int = GOAL_DAY,
    no_goal_days: tuple[int, ...] = NO_GOAL_DAYS,
    constant: bool = False,
    oracle: bool = False,
    true_level: bool = False,
    level_oracle: bool = False,
) -> list[Setup]:
    planned: Callable[[], PracticePolicy] = partial(PlannedRecallGain, horizons)
    one_review: Callable[[], PracticePolicy] = partial(ExpectedRecallGain, horizons)
    if constant:
        planned = partial(constant_prior, planned)
        one_review = partial(constant_prior, one_review)
    # round-robin ignores goals: its no-goal run is measured on the goal day too
    every_day = tuple(sorted({*no_goal_days, goal_day}))
    no_goal = [
        Setup("round-robin", RoundRobin, False, every_day),
        Setup("planned", planned, False, no_goal_days),
        Setup("current", CurrentRule, False, no_goal_days),
        Setup("one-review", one_review, False, no_goal_days),
    ]
    told: list[tuple[str, Callable[[Truth], PracticePolicy]]] = []
    if oracle:
        told.append(("oracle", TrueMemoryOracle))
    if true_level:
        told.append(("true-level", partial(TrueLevel, planned)))
    if level_oracle:
        told.append(("level-oracle", TrueLevelOracle))
    rolling = [
        (f"level-oracle-{days:g}d", partial(TrueLevelOracle, days_ahead=days))
        for days in (LEVEL_ORACLE_ROLLING if level_oracle else ())
    ]
    no_goal += [Setup(name, None, False, no_goal_days, told=t) for name, t in told + rolling]
    if only_no_goal:
        return no_goal
    goal = [
        Setup("planned", planned, True, (goal_day,)),
        Setup("current", CurrentRule, True, (goal_day,)),
        Setup("one-review", one_review, True, (goal_day,)),
    ]
    goal += [Setup(name, None, True, (goal_day,), told=t) for name, t in told]
    return [Setup("channel-only", None, False, (goal_day,)), *no_goal, *goal]


# One simulated run


@dataclass
class Run:
    service: QuizService
    clock: FakeClock
    events: int = 0

    def event_id(self) -> str:
        self.events += 1
        return f"ev{self.events}"

    async def command(self, member: MemberRef, text: str) -> None:
        name, *args = text.split()
        await self.service.handle(Command(self.event_id(), CHANNEL, member, name, tuple(args)))
        await self.service.settle()

    async def channel_round(
        self,
        admin: MemberRef,
        answering: Sequence[tuple[MemberRef, Learner]],
        bank_index: Mapping[int, int],
        rng: random.Random,
    ) -> None:
        await self.command(admin, "now")
        channel = await self.service.engine.channel(CHANNEL)
        assert channel is not None
        round_ = await self.service.store.rounds.latest_round(channel.id)
        assert round_ is not None and round_.thread is not None
        question = bank_index[round_.question_id]
        grades = []
        for member, learner in answering:
            self.clock.advance(minutes=5)
            await self.service.handle(
                Reply(
                    self.event_id(),
                    CHANNEL,
                    ThreadRef(CHANNEL, round_.thread),
                    MessageRef(CHANNEL, self.event_id()),
                    member,
                    f"answer to {question}",
                )
            )
            grades.append((member, learner.attempt(question, self.clock.now(), rng)))
        await self.service.settle()
        if not answering:
            return
        self.clock.advance(hours=2)
        reveal_on = await self.service.store.rounds.get_round(round_.id)
        assert reveal_on is not None and reveal_on.question_message is not None
        await self.service.handle(
            Reaction(
                self.event_id(),
                CHANNEL,
                MessageRef(CHANNEL, reveal_on.question_message),
                answering[0][0],
                "💡",
            )
        )
        await self.service.settle()
        for member, grade in grades:
            self.clock.advance(minutes=1)
            await self.command(member, f"grade {grade.word}")


async def simulate(
    seed: int, questions: int, setup: Setup, learner_count: int, workdir: Path
) -> dict[int, list[float]]:
    """Each learner's mean recall over the bank on each of the set-up's days."""
    catalog = Catalog([synthetic_pack(questions)])
    clock = FakeClock(START)
    platform = FakePlatform()
    people = learners(seed, learner_count, questions)
    outcomes = random.Random(f"outcomes-{seed}")
    end = START + timedelta(days=max(setup.days))
    measured: dict[int, list[float]] = {}
    pending = sorted(setup.days)
    path = workdir / f"{setup.name}-{setup.goal}-{questions}-{seed}.db"
    async with SqliteStore.open(path) as store:
        service = QuizService(
            store=store,
            platforms={platform.name: platform},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(default_schedule=None),
            rng=random.Random(seed),
            background=False,
        )
        await service.start()
        run = Run(service, clock)
        admin = MemberRef("fake", "team", "admin", "Admin")
        members = [MemberRef("fake", "team", p.name, p.name) for p in people]
        ids = [await store.members.member_id(m) for m in members]
        ids_by_key = await store.rounds.sync_questions(catalog.keys())
        bank_index = {ids_by_key[("bench", f"q-{n}")]: n for n in range(questions)}
        if setup.goal:
            for member in members:
                await run.command(member, f"goal {end.date().isoformat()}")
        learning = None
        if setup.told is not None:
            truth = Truth(
                dict(zip(ids, people, strict=True)),
                bank_index,
                tuple(START + timedelta(days=d) for d in sorted(setup.days)),
            )
            learning = LearningService(
                store.learning, service.engine.question_topics, setup.told(truth)
            )
        elif setup.policy is not None:
            learning = LearningService(
                store.learning, service.engine.question_topics, setup.policy()
            )

        def measure_until(moment: datetime) -> None:
            while pending and START + timedelta(days=pending[0]) <= moment:
                day = pending.pop(0)
                at = START + timedelta(days=day)
                measured[day] = [p.mean_recall(questions, at) for p in people]

        for day in activity(seed, learner_count, max(setup.days)):
            measure_until(day.at)
            clock.set(day.at + timedelta(hours=1))
            answering = [(members[n], people[n]) for n in range(learner_count) if day.answers[n]]
            await run.channel_round(admin, answering, bank_index, outcomes)
            if learning is None:
                continue
            clock.set(day.at + timedelta(hours=10))
            for n, learner in enumerate(people):
                if not day.practises[n]:
                    continue
                for _ in range(PRACTICE_PER_DAY):
                    clock.advance(minutes=3)
                    chosen = await learning.choose_practice(ids[n], clock.now())
                    if chosen is None:
                        break
                    grade = learner.attempt(bank_index[chosen], clock.now(), outcomes)
                    await learning.grade(ids[n], chosen, grade, clock.now())
        measure_until(end)
        await service.stop()
    return measured


Job = tuple[int, int, Setup, int]


SCRATCH = Path("/dev/shm")  # a memory file system: commits need not wait for a disk


def run_job(job: Job) -> tuple[Job, dict[int, list[float]]]:
    seed, questions, setup, learner_count = job
    scratch = SCRATCH if SCRATCH.is_dir() else None
    with tempfile.TemporaryDirectory(dir=scratch) as directory:
        return job, asyncio.run(simulate(seed, questions, setup, learner_count, Path(directory)))


# The report


@dataclass(frozen=True)
class Ratio:
    mean: float
    error: float  # the standard error of the mean over learners

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.error:.3f}"


def ratio(numerators: Sequence[float], denominators: Sequence[float]) -> Ratio:
    ratios = [n / d for n, d in zip(numerators, denominators, strict=True)]
    error = statistics.stdev(ratios) / math.sqrt(len(ratios)) if len(ratios) > 1 else 0.0
    return Ratio(statistics.fmean(ratios), error)


Results = dict[tuple[str, bool, int, int], list[float]]  # (setup, goal, bank, day) -> learners


def shipped_name() -> str:
    """The set-up that is the policy ``LearningService`` ships with."""
    return "one-review" if isinstance(shipped_policy(), ExpectedRecallGain) else "planned"


def measured_settings(
    only_no_goal: bool, goal_day: int, no_goal_days: tuple[int, ...]
) -> list[tuple[bool, int]]:
    """The (goal set, day measured) settings a table has a row group for, in order."""
    no_goal = [(False, day) for day in no_goal_days]
    return no_goal if only_no_goal else [(True, goal_day), *no_goal]


def report(
    results: Results,
    banks: Sequence[int],
    only_no_goal: bool,
    goal_day: int = GOAL_DAY,
    no_goal_days: tuple[int, ...] = NO_GOAL_DAYS,
) -> list[str]:
    """The table's rows, then the one-line summary (see :func:`summary`)."""
    shipped_setup = shipped_name()
    lines = [
        f"shipped: {shipped_setup}",
        "| setting | bank | day | round-robin | current | planned | one-review"
        " | planned vs round-robin | planned vs current | one-review vs round-robin"
        " | one-review vs current | planned vs one-review |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    missed: list[str] = []  # the settings whose targets are not met, as the summary names them
    settings = measured_settings(only_no_goal, goal_day, no_goal_days)
    for goal, day in settings:
        for bank in banks:

            def of(
                name: str, goal_of: bool = goal, bank: int = bank, day: int = day
            ) -> list[float]:
                return results[(name, goal_of, bank, day)]

            round_robin, current = of("round-robin", False), of("current")
            planned, one_review = of("planned"), of("one-review")
            shipped = of(shipped_setup)
            vs_rr, vs_current = ratio(shipped, round_robin), ratio(shipped, current)
            floor = TARGET_VS_ROUND_ROBIN_GOAL_60 if goal and bank == 60 else TARGET_VS_ROUND_ROBIN
            below_current = vs_current.mean < 1 - vs_current.error
            ok = vs_rr.mean >= floor and not below_current
            if not ok:
                reasons = [f"{vs_rr.mean:.3f} < {floor}"] if vs_rr.mean < floor else []
                reasons += [f"{vs_current.mean:.3f} vs current"] if below_current else []
                missed.append(
                    f"{'goal' if goal else 'no goal'} {bank}q day {day}: {', '.join(reasons)}"
                )
            means = " | ".join(
                f"{statistics.fmean(r):.3f}" for r in (round_robin, current, planned, one_review)
            )
            ratios = " | ".join(
                str(r)
                for r in (
                    ratio(planned, round_robin),
                    ratio(planned, current),
                    ratio(one_review, round_robin),
                    ratio(one_review, current),
                    ratio(planned, one_review),
                )
            )
            lines.append(
                f"| {'goal' if goal else 'no goal'} | {bank} | {day} | {means} | {ratios} |"
                f"{'' if ok else ' MISSED'}"
            )
    if not only_no_goal:
        for bank in banks:
            channel = results[("channel-only", False, bank, goal_day)]
            shipped = results[(shipped_setup, True, bank, goal_day)]
            lines.append(f"vs channel-only, goal, {bank} questions: {ratio(shipped, channel)}")
    lines.append(
        summary(results, banks, goal_day, only_no_goal, missed, len(settings) * len(banks))
    )
    return lines


def summary(
    results: Results,
    banks: Sequence[int],
    goal_day: int,
    only_no_goal: bool,
    missed: Sequence[str],
    settings: int,
) -> str:
    """The bench's last line: ``learning: shipped B channel-only A round-robin C
    vs-channel X vs-round-robin Y`` on the goal date (60 questions, or the first bank
    run) with the learning issue's targets there, then how many of the ``settings`` meet
    theirs (#28) and the ``missed`` ones."""
    per_setting = f"per setting: {settings - len(missed)} of {settings} met" + (
        f" (missed: {'; '.join(missed)})" if missed else ""
    )
    if only_no_goal:
        return (
            f"learning: shipped {shipped_name()}, no goal set (goal date unmeasured); {per_setting}"
        )
    bank = 60 if 60 in banks else banks[0]
    shipped = results[(shipped_name(), True, bank, goal_day)]
    channel = results[("channel-only", False, bank, goal_day)]
    round_robin = results[("round-robin", False, bank, goal_day)]
    vs_channel, vs_round_robin = ratio(shipped, channel), ratio(shipped, round_robin)

    def held(figure: Ratio, target: float) -> str:
        return f">= {target} {'met' if figure.mean >= target else 'MISSED'}"

    return (
        f"learning: shipped {statistics.fmean(shipped):.3f}"
        f" channel-only {statistics.fmean(channel):.3f}"
        f" round-robin {statistics.fmean(round_robin):.3f}"
        f" vs-channel {vs_channel} vs-round-robin {vs_round_robin}"
        f" (goal on day {goal_day}, {bank} questions: vs-channel"
        f" {held(vs_channel, TARGET_VS_CHANNEL)}, vs-round-robin"
        f" {held(vs_round_robin, TARGET_VS_ROUND_ROBIN)}); {per_setting}"
    )


def versus_round_robin(
    results: Results,
    banks: Sequence[int],
    only_no_goal: bool,
    goal_day: int = GOAL_DAY,
    no_goal_days: tuple[int, ...] = NO_GOAL_DAYS,
) -> list[str]:
    """Every practising set-up that ran against round-robin, a row per setting."""
    names = sorted(
        {n for (n, _, _, _) in results} - {"round-robin", "channel-only"},
        key=lambda n: (n != "planned", n),
    )
    lines = [
        "| setting | bank | day | " + " | ".join(f"{n} vs round-robin" for n in names) + " |",
        "| --- | --- | --- |" + " --- |" * len(names),
    ]
    settings = measured_settings(only_no_goal, goal_day, no_goal_days)
    for goal, day in settings:
        for bank in banks:
            round_robin = results[("round-robin", False, bank, day)]
            cells = [
                str(ratio(results[(n, goal, bank, day)], round_robin))
                if (n, goal, bank, day) in results
                else "-"
                for n in names
            ]
            label = "goal" if goal else "no goal"
            lines.append(f"| {label} | {bank} | {day} | " + " | ".join(cells) + " |")
    return lines


def main(args: argparse.Namespace) -> None:
    if getattr(args, "team_ceiling", False):
        import team_population as population

        print("\n".join(population.ceiling_main(args.jobs)))
        return
    if getattr(args, "team", False) or getattr(args, "team_report", ""):
        team(args)
        return
    started = time.perf_counter()
    seeds = range(args.first_seed, args.first_seed + (2 if args.quick else args.seeds))
    banks = (60,) if args.quick else tuple(int(b) for b in args.banks.split(","))
    horizons = tuple(float(h) for h in args.no_goal_horizons.split(","))
    no_goal_days = tuple(int(d) for d in args.no_goal_days.split(","))
    jobs: list[Job] = [
        (seed, bank, setup, args.learners)
        for bank in banks
        for seed in seeds
        for setup in setups(
            horizons,
            args.only_no_goal,
            args.goal_day,
            no_goal_days,
            args.constant_prior,
            args.oracle,
            args.true_level,
            args.level_oracle,
        )
        if not args.only or setup.name in {"round-robin", *args.only.split(",")}
    ]
    results: Results = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        done = pool.map(run_job, jobs) if args.jobs > 1 else map(run_job, jobs)
        for (seed, bank, setup, _), measured in done:
            for day, recalls in measured.items():
                results.setdefault((setup.name, setup.goal, bank, day), []).extend(recalls)
            print(
                f"seed {seed} bank {bank} {setup.name} "
                f"{'goal' if setup.goal else 'no goal'}: "
                + " ".join(f"day {d} {statistics.fmean(r):.3f}" for d, r in measured.items()),
                flush=True,
            )
    learners_count = len(seeds) * args.learners
    print(
        f"{learners_count} learners a setting, banks {banks}, no-goal horizons {horizons},"
        f" {time.perf_counter() - started:.0f} s"
    )
    if not args.only:
        print("\n".join(report(results, banks, args.only_no_goal, args.goal_day, no_goal_days)))
    if args.only or any(setup.told for _, _, setup, _ in jobs):
        table = versus_round_robin(results, banks, args.only_no_goal, args.goal_day, no_goal_days)
        print("\n".join(table))


def team(args: argparse.Namespace) -> None:
    """The team population (see bench/team_population.py): its table against round-robin,
    the targets, the forecast's held-out log loss, and the one-line summary last."""
    import team_population as population

    if args.team_report:
        lines = population.report_file(args.team_report)
    else:
        lines = population.team_main(args.quick, args.kept, args.jobs, args.team_out or None)
    print("\n".join(lines))
    if not args.team_report:
        started = time.perf_counter()
        losses = population.forecast_losses(population.team_logs(seeds=4 if args.quick else 10))
        print("\n".join(losses))
        print(f"forecast log loss: {time.perf_counter() - started:.0f} s")
    print(next(line for line in lines if line.startswith("(b)")).replace("(b)", "learning team:"))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=1, help="seeds first..first+seeds-1")
    parser.add_argument("--learners", type=int, default=10, help="a seed's channel's learners")
    parser.add_argument("--banks", default=",".join(str(b) for b in BANKS))
    parser.add_argument("--jobs", type=int, default=2, help="runs side by side (processes)")
    parser.add_argument("--quick", action="store_true", help="two seeds, 60 questions")
    parser.add_argument("--no-goal-horizons", default=",".join(f"{h:g}" for h in NO_GOAL_HORIZONS))
    parser.add_argument("--only-no-goal", action="store_true")
    parser.add_argument("--goal-day", type=int, default=GOAL_DAY)
    parser.add_argument(
        "--constant-prior", action="store_true", help="the shipped policy without its prior"
    )
    parser.add_argument("--no-goal-days", default=",".join(str(d) for d in NO_GOAL_DAYS))
    parser.add_argument(
        "--oracle", action="store_true", help="also the bound that sees the true memory"
    )
    parser.add_argument(
        "--true-level", action="store_true", help="also the policy told each true prior level"
    )
    parser.add_argument(
        "--level-oracle",
        action="store_true",
        help="also the bound that sees the true memory but only the true first-sight level",
    )
    parser.add_argument("--only", default="", help="only these set-ups (and round-robin)")
    parser.add_argument(
        "--team", action="store_true", help="the team population (bench/team_population.py)"
    )
    parser.add_argument(
        "--kept", action="store_true", help="team: first-sight knowledge kept after a review"
    )
    parser.add_argument("--team-out", default="", help="team: append each run here (JSON lines)")
    parser.add_argument("--team-report", default="", help="team: the tables of a --team-out file")
    parser.add_argument(
        "--team-ceiling",
        action="store_true",
        help="team: what the team's grades could teach at best where target (a) is missed",
    )
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args())
