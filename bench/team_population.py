"""The team population of ``bench/learning.py --team``: what a team shares.

Each question's difficulty is drawn once per team, d_q ~ N(0, spread²), and shared by
every learner of it: a logit offset on first-sight recall, and a scale exp(0.3 d_q) on
the stability of the learner's first review of it (an easy question sticks longer).
Each learner draws a level (their first-sight recall of an average question) from
0.05-0.6 and FSRS parameters of their own (as the practice-fit population does:
``bench.learning.learners``), unknown to every policy. A learner recalls question q on
first sight with sigmoid(logit(level) + d_q).

Truth model for what a learner knows before the first review: **replaced**. The recall
on first sight is that of the first attempt only; that review then starts a fresh FSRS
card (seen: the prior knowledge counted only in how the first attempt was graded), as in
the practice-fit population. ``--kept`` instead keeps it: after the first review the
learner recalls with 1 - (1 - p)(1 - R), their prior knowledge p beside the card's R.

The loop runs in one process without the chat core (a team's 90 days in about a second):
the channel question each weekday (the team's rotation, in a shuffled bank order,
answered by each learner with probability 0.7), practice on 70% of weekdays (2 questions),
honest self-grades with noise, and the member's cards replayed through
``bot.learning.memory_model.review`` from the grades given, as the bot does. The priors
of the rules are the bot's own: :class:`bot.learning.first_sight.FirstSights` built from
the first grades given so far (the member's, the team's, and for the shipped rule the
team's first grades of each question).

Set-ups, at equal budget (the same activity, the same grades' noise):

    round-robin     practice in bank order
    practice-fit    the rule of the practice-fit issue: the planned forecast with the
                    member's learned level for every unseen question
    shipped         the same with this issue's estimate: the level moved by the question's
                    difficulty as the team's first grades show
    question-oracle the greedy choice on the true memory, told each question's true
                    difficulty and each learner's true level (so every unseen question's
                    true first-sight recall)
    level-oracle    the same told only the learner's true level (the mean of their
                    first-sight recall over the bank) for unseen questions
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from fsrs import Rating
from learning import (
    ANSWER_CHANCE,
    GRADE_NOISE,
    PRACTICE_DAY_CHANCE,
    PRACTICE_PER_DAY,
    TOPICS,
    Learner,
    RoundRobin,
    TrueLevelOracle,
    TrueMemoryOracle,
    Truth,
    best_true_review,
    learners,
    true_rating,
)

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning.first_sight import FirstGrades, FirstSights
from bot.learning.memory_model import MemoryCard
from bot.learning.parameter_fit import Review
from bot.learning.practice_policy import PlannedRecallGain, PracticePolicy, PracticeRequest
from bot.learning.question_difficulty import logit, sigmoid

START = datetime(2027, 1, 4, 8, 0, tzinfo=UTC)  # a Monday
STABILITY_SCALE = 0.3  # a question's first stability is scaled by exp(this * d_q)
PACE_WINDOW = timedelta(days=28)
ONE_DAY = timedelta(days=1)
SETUPS = ("round-robin", "practice-fit", "shipped", "question-oracle", "level-oracle")


@dataclass
class TeamLearner(Learner):
    """A learner of a team: their first review of a question scaled by its difficulty."""

    scales: dict[int, float] = field(default_factory=dict)
    kept: bool = False
    level: float = 0.0  # the first-sight recall of a question of no difficulty (d = 0)

    def recall(self, question: int, at: datetime) -> float:
        card = self.cards.get(question)
        if card is None:
            return self.priors[question]
        recall = float(self.memory.get_card_retrievability(card, at))
        if self.kept:
            return 1 - (1 - self.priors[question]) * (1 - recall)
        return recall

    def attempt(self, question: int, at: datetime, rng: random.Random) -> Grade:
        first = question not in self.cards
        grade = super().attempt(question, at, rng)
        if first:
            card = self.cards[question]
            assert card.stability is not None
            card.stability *= self.scales[question]
        return grade


def team(
    seed: int, size: int, questions: int, spread: float, kept: bool, defaults: bool = False
) -> tuple[list[TeamLearner], list[float]]:
    """The team's learners and the bank's true difficulties (``defaults``: every learner's
    memory on FSRS's default parameters instead of their own)."""
    rng = random.Random(f"team-{seed}-{size}-{questions}-{spread}")
    difficulty = [rng.gauss(0.0, spread) for _ in range(questions)]
    made = []
    for base in learners(seed, size, questions):
        level = rng.uniform(0.05, 0.6)
        priors = {q: sigmoid(logit(level) + d) for q, d in enumerate(difficulty)}
        scales = {q: math.exp(STABILITY_SCALE * d) for q, d in enumerate(difficulty)}
        memory = memory_model.SCHEDULER if defaults else base.memory
        made.append(TeamLearner(base.name, memory, priors, scales=scales, kept=kept, level=level))
    return made, difficulty


@dataclass
class TeamLog:
    """What the bot knows: the grades given, as cards and first sights."""

    questions: int
    cards: list[dict[int, MemoryCard]]
    grades: list[list[datetime]]  # each member's grade times, in order
    own: list[dict[str, FirstGrades]]  # each member's first sights per topic
    by_question: dict[int, FirstGrades] = field(default_factory=dict)
    reviews: list[Review] = field(default_factory=list)
    # each question's first sights: who, and whether they recalled it (for the oracles)
    first_sights: dict[int, list[tuple[int, bool]]] = field(default_factory=dict)

    def record(self, member: int, question: int, grade: Grade, at: datetime) -> None:
        card = self.cards[member].get(question)
        if card is None:
            missed = 1 if grade is Grade.MISSED else 0
            topic = TOPICS[question % len(TOPICS)]
            self.own[member][topic] = self.own[member].get(topic, FirstGrades()) + FirstGrades(
                1, missed
            )
            self.by_question[question] = self.by_question.get(
                question, FirstGrades()
            ) + FirstGrades(1, missed)
            self.first_sights.setdefault(question, []).append((member, not missed))
        self.cards[member][question] = memory_model.review(question, card, grade, at)
        self.grades[member].append(at)
        self.reviews.append(Review((member, question), int(grade.rating), at))

    def sights(self, member: int, with_questions: bool) -> FirstSights:
        everyone: dict[str, FirstGrades] = {}
        team: dict[str, FirstGrades] = {}
        for other, counts in enumerate(self.own):
            for topic, grades in counts.items():
                everyone[topic] = everyone.get(topic, FirstGrades()) + grades
                if other != member:
                    team[topic] = team.get(topic, FirstGrades()) + grades
        questions = dict(self.by_question) if with_questions else {}
        return FirstSights(self.own[member], team, everyone, questions)

    def pace(self, member: int, at: datetime) -> float:
        times = self.grades[member]
        if not times:
            return 0.0
        since = max(at - PACE_WINDOW, times[0])
        recent = sum(1 for t in times if t >= at - PACE_WINDOW)
        return recent / (max(at - since, timedelta(days=7)) / ONE_DAY)


def simulate_team(
    seed: int,
    size: int,
    questions: int,
    spread: float,
    setup: str,
    days: Sequence[int],
    goal: bool,
    kept: bool = False,
    defaults: bool = False,
) -> tuple[dict[int, list[float]], list[Review]]:
    """Each learner's mean true recall over the bank on each of ``days``, and the log."""
    people, _ = team(seed, size, questions, spread, kept, defaults)
    activity_rng = random.Random(f"activity-{seed}-{size}")
    outcomes = random.Random(f"outcomes-{seed}-{size}-{questions}")
    order = list(range(questions))
    random.Random(f"rotation-{seed}").shuffle(order)
    log = TeamLog(questions, [{} for _ in people], [[] for _ in people], [{} for _ in people])
    end = START + timedelta(days=max(days))
    measured_at = tuple(START + timedelta(days=d) for d in sorted(days))
    truth = Truth(dict(enumerate(people)), {q: q for q in range(questions)}, measured_at)
    policy = _policy(setup, truth, log, spread)
    target = end if goal else None
    measured: dict[int, list[float]] = {}
    pending = sorted(days)
    rotation = 0
    for offset in range(max(days)):
        at = START + timedelta(days=offset)
        answers = [activity_rng.random() < ANSWER_CHANCE for _ in people]
        practises = [activity_rng.random() < PRACTICE_DAY_CHANCE for _ in people]
        while pending and START + timedelta(days=pending[0]) <= at:
            day = pending.pop(0)
            moment = START + timedelta(days=day)
            measured[day] = [p.mean_recall(questions, moment) for p in people]
        if at.weekday() >= 5:
            continue
        question = order[rotation % questions]
        rotation += 1
        asked = at + timedelta(hours=1)
        for n, learner in enumerate(people):
            if answers[n]:
                log.record(n, question, learner.attempt(question, asked, outcomes), asked)
        if policy is None:
            continue
        for n, learner in enumerate(people):
            if not practises[n]:
                continue
            now = at + timedelta(hours=10)
            for _ in range(PRACTICE_PER_DAY):
                now += timedelta(minutes=3)
                chosen = _choose(policy, setup, log, n, now, target)
                if chosen is None:
                    break
                log.record(n, chosen, learner.attempt(chosen, now, outcomes), now)
    for day in pending:
        measured[day] = [p.mean_recall(questions, START + timedelta(days=day)) for p in people]
    return measured, log.reviews


def _policy(setup: str, truth: Truth, log: TeamLog, spread: float) -> PracticePolicy | None:
    made: dict[str, Callable[[], PracticePolicy]] = {
        "round-robin": RoundRobin,
        "practice-fit": PlannedRecallGain,
        "shipped": PlannedRecallGain,
        "question-oracle": lambda: TrueMemoryOracle(truth),
        "level-oracle": lambda: TrueLevelOracle(truth),
        SEEN_ORACLE: lambda: TeamSeenOracle(truth, log),
        GRADES_ORACLE: lambda: TeamGradesOracle(truth, log, spread),
    }
    return made[setup]()


# Not in the grid: how far the team's grades can teach a question's difficulty, run where
# target (a) is missed (``--team-ceiling``).
SEEN_ORACLE = "team-seen-oracle"
GRADES_ORACLE = "team-grades-oracle"


@dataclass(frozen=True)
class TeamSeenOracle:
    """More than the team's grades can tell: the question oracle's greedy choice, told a
    question's true first-sight recall for the member as soon as anyone in the team has
    graded it, and only the member's true level for a question nobody in the team has
    graded yet (no grade has said anything about it)."""

    truth: Truth
    log: TeamLog

    def choose(self, request: PracticeRequest) -> int | None:
        learner = self.truth.learners[request.member_id]
        level = statistics.fmean(learner.priors.values())
        seen = self.log.by_question
        return best_true_review(
            self.truth,
            request,
            self.truth.measured_ahead(request.now),
            first_sight=lambda question_id: None if question_id in seen else level,
        )


@dataclass(frozen=True)
class TeamGradesOracle:
    """The best a rule could know of a question's difficulty from the team's first grades:
    the question oracle's greedy choice with a question the member never graded recalled
    at the posterior mean of their first-sight recall, given every teammate's first grade
    of it and what a deployment cannot know: the true spread of difficulties, each
    teammate's true level and how often a grade is one step off (Bayes, on a grid of
    difficulties). A question nobody graded is at the member's level."""

    truth: Truth
    log: TeamLog
    spread: float

    def choose(self, request: PracticeRequest) -> int | None:
        learner = self.truth.learners[request.member_id]
        assert isinstance(learner, TeamLearner)
        return best_true_review(
            self.truth,
            request,
            self.truth.measured_ahead(request.now),
            first_sight=lambda question_id: (
                None
                if question_id in learner.cards  # seen: its true memory, no posterior needed
                else self._posterior_recall(learner.level, question_id)
            ),
        )

    def _posterior_recall(self, level: float, question_id: int) -> float:
        weights = [math.exp(-0.5 * z * z) for z in _GRID]
        for member, recalled in self.log.first_sights.get(question_id, ()):
            other = self.truth.learners[member]
            assert isinstance(other, TeamLearner)
            base = logit(other.level)
            for n, z in enumerate(_GRID):
                graded_recalled = _graded_recalled(sigmoid(base + z * self.spread))
                weights[n] *= graded_recalled if recalled else 1.0 - graded_recalled
        total = sum(weights)
        own = logit(level)
        recalls = (sigmoid(own + z * self.spread) for z in _GRID)
        return sum(w * r for w, r in zip(weights, recalls, strict=True)) / total


_GRID = tuple(-4.0 + 0.2 * n for n in range(41))  # difficulty in standard deviations
_SLIP = GRADE_NOISE / 2  # a grade one step off, toward the other outcome


def _graded_recalled(chance: float) -> float:
    """How often a first sight of recall ``chance`` is graded other than missed: recalled
    and not a hard recall read one step down as a miss, or missed and read one step up."""
    down = _SLIP if true_rating(chance) is Rating.Hard else 0.0
    return chance * (1.0 - down) + (1.0 - chance) * _SLIP


def _choose(
    policy: PracticePolicy,
    setup: str,
    log: TeamLog,
    member: int,
    now: datetime,
    target: datetime | None,
) -> int | None:
    cards = log.cards[member]
    candidates = [
        q
        for q in range(log.questions)
        if not memory_model.reviewed_within(cards.get(q), now, ONE_DAY)
    ]
    request = PracticeRequest(member, candidates, cards, now, target, log.pace(member, now))
    if setup in ("practice-fit", "shipped"):
        sights = log.sights(member, with_questions=setup == "shipped")
        unseen = {q: TOPICS[q % len(TOPICS)] for q in candidates if q not in cards}
        request = replace(request, priors=sights.priors(unseen))
    return policy.choose(request)


# the report


@dataclass(frozen=True)
class Figure:
    mean: float
    error: float

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.error:.3f}"


def versus(
    numerators: Mapping[int, Sequence[float]], denominators: Mapping[int, Sequence[float]]
) -> Figure:
    """The mean over learners of each learner's ratio (the same seed's same learner in
    both), ± its standard error; only seeds both ran."""
    seeds = sorted(numerators.keys() & denominators.keys())
    ratios = [
        n / d for seed in seeds for n, d in zip(numerators[seed], denominators[seed], strict=True)
    ]
    error = statistics.stdev(ratios) / math.sqrt(len(ratios)) if len(ratios) > 1 else 0.0
    return Figure(statistics.fmean(ratios), error)


Setting = tuple[int, int, float, bool, int]  # team size, bank, spread, goal, day
# (set-up, setting) -> seed -> each learner's recall
TeamResults = dict[tuple[str, Setting], dict[int, list[float]]]


def team_report(results: TeamResults, settings: Sequence[Setting]) -> list[str]:
    """The table against round-robin, then the targets (a)-(c) and a summary line."""
    names = [s for s in SETUPS if s != "round-robin"]
    lines = [
        "| team | bank | spread | goal | day | learners | round-robin | "
        + " | ".join(f"{n} vs rr" for n in names)
        + " | oracle gap |",
        "| --- | --- | --- | --- | --- | --- | --- |" + " --- |" * len(names) + " --- |",
    ]
    gains: dict[str, float] = dict.fromkeys(names, 0.0)
    a_misses: list[str] = []
    a_checked = 0
    c_below: list[str] = []
    c_above = 0
    c_checked = 0
    for setting in settings:
        size, bank, spread, goal, day = setting
        rr = results.get(("round-robin", setting))
        if rr is None:
            continue
        figures = {n: versus(results[(n, setting)], rr) for n in names if (n, setting) in results}
        gap = (
            figures["question-oracle"].mean - figures["level-oracle"].mean
            if "question-oracle" in figures and "level-oracle" in figures
            else float("nan")
        )
        cells = " | ".join(str(figures[n]) if n in figures else "-" for n in names)
        label = "goal" if goal else "no goal"
        lines.append(
            f"| {size} | {bank} | {spread:g} | {label} | {day} | {_learners(results, setting)}"
            f" | {statistics.fmean(r for rs in rr.values() for r in rs):.3f} | {cells}"
            f" | {gap:+.3f} |"
        )
        if size < 8 or len(figures) < len(names):
            continue  # the targets are for teams of 8 and more, every set-up measured
        for n, figure in figures.items():
            gains[n] += figure.mean - 1
        shipped, fit = figures.get("shipped"), figures.get("practice-fit")
        if shipped is not None and gap >= 0.03:
            a_checked += 1
            if shipped.mean < 1.02:
                a_misses.append(f"{size}/{bank}/{spread:g}/{label}/d{day} {shipped.mean:.3f}")
        if shipped is not None and fit is not None:
            c_checked += 1
            difference = versus(results[("shipped", setting)], results[("practice-fit", setting)])
            if difference.mean < 1 - 2 * difference.error:
                c_below.append(f"{size}/{bank}/{spread:g}/{label}/d{day} {difference}")
            if difference.mean > 1 + difference.error:
                c_above += 1
    share = gains["shipped"] / gains["question-oracle"] if gains["question-oracle"] else 0.0
    lines.append(
        f"(a) settings (teams >= 8) where the question oracle leads the level oracle by >= 0.03:"
        f" {a_checked}; shipped >= 1.02x round-robin in {a_checked - len(a_misses)}"
        + (f" (missed: {'; '.join(a_misses)})" if a_misses else "")
    )
    lines.append(
        f"(b) summed gain over round-robin (teams >= 8): shipped {gains['shipped']:.3f},"
        f" practice-fit {gains['practice-fit']:.3f}, question oracle"
        f" {gains['question-oracle']:.3f}, level oracle {gains['level-oracle']:.3f}:"
        f" shipped/question oracle {share:.2f} (target >= 0.33)"
    )
    lines.append(
        f"(c) shipped vs practice-fit (teams >= 8): below by > 2 SE in {len(c_below)} of"
        f" {c_checked}"
        + (f" ({'; '.join(c_below)})" if c_below else "")
        + f"; above by > 1 SE in {c_above} of {c_checked}"
    )
    return lines


def forecast_losses(
    logs: Mapping[str, Sequence[Sequence[Review]]],
) -> list[str]:
    """The held-out log loss of the default and the fitted parameters on each team's log
    (the acceptance rule of ``bot.learning.parameter_fit``), per population."""
    from bot.learning.parameter_fit import DEFAULTS, fit, rust_optimizer

    optimizer = rust_optimizer()
    lines = [
        "| learners' true parameters | teams | reviews a team | default log loss"
        " | fitted log loss | fitted better | kept |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    if optimizer is None:
        return ["forecast: fsrs-rs-python is not installed, no fit measured"]
    for population, team_logs in logs.items():
        outcomes = [fit(list(log), DEFAULTS, optimizer) for log in team_logs]
        fitted = [o for o in outcomes if o.loss_fitted is not None and o.loss_before is not None]
        if not fitted:
            lines.append(f"| {population} | {len(outcomes)} | - | - | - | - | none fitted |")
            continue
        before = [o.loss_before for o in fitted if o.loss_before is not None]
        after = [o.loss_fitted for o in fitted if o.loss_fitted is not None]
        better = sum(1 for b, a in zip(before, after, strict=True) if a < b)
        reviews = statistics.fmean(o.reviews + o.held_out for o in fitted)
        lines.append(
            f"| {population} | {len(fitted)} | {reviews:.0f} | {_mean_se(before)}"
            f" | {_mean_se(after)} | {better} of {len(fitted)}"
            f" | {sum(o.kept for o in fitted)} of {len(fitted)} |"
        )
    return lines


def _mean_se(values: Sequence[float]) -> str:
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):.4f} ± {error:.4f}"


# the grid and its driver

TEAMS = (4, 8, 16)
TEAM_BANKS = (60, 120)
SPREADS = (0.5, 1.0, 1.5)
TEAM_DAYS = (30, 60, 90)
TARGET_LEARNERS = 120  # per setting with a team of 8 or more
OTHER_LEARNERS = 40

# one run: seed, team size, bank, spread, goal, the days measured, set-up
TeamJob = tuple[int, int, int, float, bool, tuple[int, ...], str]


def grid(quick: bool, kept: bool = False) -> list[TeamJob]:
    """Every run of the grid, most wanted first (so an unfinished run still reports the
    targets): without a goal, 60 questions then 120, teams of 8 and 16 then 4; then with
    the goal on day 90, 60 and 30, in the same order. ``quick``: a team of 8, 60
    questions, spread 1.0, 40 learners, no goal."""
    if quick:
        return [
            (seed, 8, 60, 1.0, False, TEAM_DAYS, setup) for seed in range(1, 6) for setup in SETUPS
        ]
    jobs: list[TeamJob] = []
    for goal_day in (None, *reversed(TEAM_DAYS)):
        for bank, size in [(b, s) for b in TEAM_BANKS for s in (8, 16)] + [(60, 4), (120, 4)]:
            wanted = TARGET_LEARNERS if size >= 8 else OTHER_LEARNERS
            for spread in SPREADS:
                for seed in range(1, math.ceil(wanted / size) + 1):
                    goal = goal_day is not None
                    days = TEAM_DAYS if goal_day is None else (goal_day,)
                    jobs += [(seed, size, bank, spread, goal, days, s) for s in SETUPS]
    return jobs


def run_team_job(job: TeamJob, kept: bool = False) -> tuple[TeamJob, dict[int, list[float]]]:
    seed, size, bank, spread, goal, days, setup = job
    measured, _ = simulate_team(seed, size, bank, spread, setup, days, goal, kept)
    return job, measured


def collect(done: Sequence[tuple[TeamJob, Mapping[int, Sequence[float]]]]) -> TeamResults:
    results: TeamResults = {}
    for (seed, size, bank, spread, goal, _, setup), measured in done:
        for day, recalls in measured.items():
            results.setdefault((setup, (size, bank, spread, goal, day)), {})[seed] = list(recalls)
    return results


def _learners(results: TeamResults, setting: Setting) -> int:
    """How many learners every set-up of the setting ran (the ratios' count)."""
    ran = [set(results[(s, setting)]) for s in SETUPS if (s, setting) in results]
    seeds = set.intersection(*ran) if ran else set()
    rr = results[("round-robin", setting)]
    return sum(len(rr[seed]) for seed in seeds)


def settings_of(results: TeamResults) -> list[Setting]:
    found = {setting for _, setting in results}
    return sorted(found, key=lambda s: (s[0] < 8, s[0], s[1], s[2], not s[3], s[4]))


def team_logs(seeds: int = 10, size: int = 8, bank: int = 60) -> dict[str, list[list[Review]]]:
    """Round-robin teams' review logs over 90 days: learners' parameters drawn per learner
    (unlike the defaults), and every learner on FSRS's defaults."""
    return {
        population: [
            simulate_team(seed, size, bank, 1.0, "round-robin", (90,), False, defaults=on)[1]
            for seed in range(1, seeds + 1)
        ]
        for population, on in (("drawn per learner", False), ("FSRS defaults", True))
    }


def team_main(quick: bool, kept: bool, jobs: int, out: str | None) -> list[str]:
    """Run the grid (``out``: each finished run appended there as a JSON line, so a long
    run can be reported before it ends with :func:`report_file`); the tables' lines."""
    import contextlib
    import json
    import time
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    started = time.perf_counter()
    done = []
    finished: set[str] = set()
    if out:  # runs a file holds already (an interrupted grid) are not run again
        with contextlib.suppress(FileNotFoundError), open(out, encoding="utf-8") as rows:
            for line in rows:
                row = json.loads(line)
                finished.add(json.dumps(row["job"]))
                done.append((_job(row["job"]), {int(d): r for d, r in row["measured"].items()}))
    work = [job for job in grid(quick, kept) if json.dumps(list(job)) not in finished]
    sink = open(out, "a", encoding="utf-8") if out else None  # noqa: SIM115
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            runs = pool.map(partial(run_team_job, kept=kept), work, chunksize=1)
            for job, measured in runs:
                done.append((job, measured))
                if sink is not None:
                    elapsed = round(time.perf_counter() - started)
                    row = {"job": job, "measured": measured, "elapsed": elapsed}
                    sink.write(json.dumps(row) + "\n")
                    sink.flush()
    finally:
        if sink is not None:
            sink.close()
    results = collect(done)
    lines = [f"team population: {len(work)} runs, {time.perf_counter() - started:.0f} s"]
    lines += team_report(results, settings_of(results))
    return lines


# The settings where target (a) is missed: a team of 8 or 16 on 120 questions at spread
# 0.5, 30 days on (team size, bank, spread, goal).
CEILING_SETTINGS = ((8, 120, 0.5, True), (8, 120, 0.5, False), (16, 120, 0.5, False))
CEILING_DAY = 30


def ceiling_main(jobs: int) -> list[str]:
    """Round-robin, the shipped rule and the team-grades and team-seen oracles where target
    (a) is missed: how far a rule that learns difficulty from the team's grades could go."""
    import time
    from concurrent.futures import ProcessPoolExecutor

    started = time.perf_counter()
    work: list[TeamJob] = [
        (seed, size, bank, spread, goal, (CEILING_DAY,), setup)
        for size, bank, spread, goal in CEILING_SETTINGS
        for seed in range(1, math.ceil(TARGET_LEARNERS / size) + 1)
        for setup in ("round-robin", "shipped", GRADES_ORACLE, SEEN_ORACLE)
    ]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = collect(list(pool.map(run_team_job, work, chunksize=1)))
    lines = [
        f"team ceiling: {len(work)} runs, {time.perf_counter() - started:.0f} s",
        "| team | bank | spread | goal | day | learners | shipped vs rr"
        " | team-grades oracle vs rr | team-seen oracle vs rr |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for size, bank, spread, goal in CEILING_SETTINGS:
        setting = (size, bank, spread, goal, CEILING_DAY)
        rr = results[("round-robin", setting)]
        shipped = versus(results[("shipped", setting)], rr)
        seen = versus(results[(SEEN_ORACLE, setting)], rr)
        grades = versus(results[(GRADES_ORACLE, setting)], rr)
        learners_run = sum(len(recalls) for recalls in rr.values())
        label = "goal" if goal else "no goal"
        lines.append(
            f"| {size} | {bank} | {spread:g} | {label} | {CEILING_DAY} | {learners_run} |"
            f" {shipped} | {grades} | {seen} |"
        )
    return lines


def report_file(path: str) -> list[str]:
    """The tables of the runs a (possibly unfinished) ``--team-out`` file holds."""
    import json

    done = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            done.append((_job(row["job"]), {int(d): r for d, r in row["measured"].items()}))
    results = collect(done)
    return team_report(results, settings_of(results))


def _job(stored: list[object]) -> TeamJob:
    seed, size, bank, spread, goal, days, setup = stored
    assert isinstance(days, list)
    return (
        int(str(seed)),
        int(str(size)),
        int(str(bank)),
        float(str(spread)),
        bool(goal),
        tuple(int(d) for d in days),
        str(setup),
    )
