"""What a grade from the checklist is worth: simulated learners whose self-grades are noisy
and biased, graded by themselves or from the key points they tick, with "partly" read as
FSRS's Hard (shipped) or as Again.

Each learner's true memory follows the FSRS forgetting curve with hidden parameters of
their own (as in bench/learning.py) and a prior recall of 0.05-0.6 for a question never
seen. Every day for 90 days the learner practises 2 questions of a 60-question bank, each
chosen by the shipped practice policy from the learner's cards as quizbot has them (built by
``bot.learning.memory_model`` from the grades the learner gave), aiming at day 90. Trying a
question is a review of the true memory with the true outcome: Again when the answer is not
recalled, else Hard, Good or Easy as the recall was shaky, fair or sure.

The grade quizbot records comes one of three ways:

    honest     the true outcome (the best case, for reference)
    self       the learner's own word: the true outcome + a bias of +0.5 grade + Gaussian
               noise with a spread (standard deviation) of one grade, rounded and clipped
               to 1-4 (learners rate themselves a little kindly, and not consistently)
    checklist  the key points ticked: the answer covers each of 5 key points with a chance
               set by the true outcome (Again 0.15, Hard 0.5, Good 0.8, Easy 0.97); the
               learner ticks a covered point, and ticks a missed one with chance 0.15
               (optimism), and the grade is ``bot.reviews.rubric.grade_from_coverage``

("checklist" with the shipped cut-offs, 3/4 of the points for "good" and 2/5 for "partly";
"ticks-.8/.6" and "ticks-.6/.2" with stricter and looser ones), and each is run with
"partly" read by FSRS as Hard and as Again (as shipped since this bench). It prints,
per set-up, the mean over learners of the true recall on day 90 (mean over the bank) with
its standard error, and the mean ratio to "self, partly=Hard" (learner by learner, the same
learners and luck) with its standard error.

With ``--coach`` it prints instead what a coach's grade is worth, for a grid of coach
qualities, with "partly" read as Again (as shipped). A coach of per-key-point precision
p, recall r and leniency l ticks each key point the answer truly covers (covered as for
the checklist) with chance r, and each point it does not cover with the chance that makes
a share p of its ticks true over the bench's answers (about 0.48 of the key points are
covered, see COVERED_SHARE); the grade is ``grade_from_coverage`` of its ticks, raised one
step with chance l. Its grades are the only ones the memory model gets: the case of a
member who never grades, for whom the coach's verified ticks stand in. The table compares
it with honest grades, self-grades, the checklist and no grade at all (the member never
grades and nothing stands in), and gives the precision and recall the coach's ticks had
and how often its grade was kinder than the one the covered points propose.

    PYTHONPATH=. python bench/self_grading.py [--learners 40] [--days 90] [--questions 60]
                                              [--per-day 2] [--seed 1] [--workers 2]
                                              [--coach] [--coach-precision 0.5,0.7,0.9]
                                              [--coach-recall 0.5,0.7,0.9]
                                              [--coach-leniency 0,0.2]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning.memory_model import MemoryCard
from bot.learning.practice_policy import PlannedRecallGain, PracticeRequest
from bot.reviews.rubric import GOOD_SHARE, PARTLY_SHARE, grade_from_coverage

START = datetime(2027, 1, 4, 18, 0, tzinfo=UTC)
KEY_POINTS = 5
BIAS = 0.5
SPREAD = 1.0
COVER_CHANCE = {Rating.Again: 0.15, Rating.Hard: 0.5, Rating.Good: 0.8, Rating.Easy: 0.97}
FALSE_TICK = 0.15
SOURCES = ("honest", "self", "checklist", "ticks-.8/.6", "ticks-.6/.2")
MAPPINGS = ("partly=Hard", "partly=Again")
BASELINE = ("self", "partly=Hard")
# The share of key points the bench's answers cover (honest grades, "partly" as Again:
# 0.48 over 8 learners' 1,440 answers), which sets a coach's chance of a false tick.
COVERED_SHARE = 0.48
COACH_MAPPING = "partly=Again"  # as shipped
COACH_REFERENCES = ("honest", "self", "checklist", "none")


@dataclass
class Learner:
    memory: Scheduler
    priors: list[float]
    true_cards: dict[int, Card] = field(default_factory=dict)
    model_cards: dict[int, MemoryCard] = field(default_factory=dict)

    def recall(self, question: int, at: datetime) -> float:
        card = self.true_cards.get(question)
        if card is None:
            return self.priors[question]
        return float(self.memory.get_card_retrievability(card, at))

    def attempt(self, question: int, at: datetime, rng: random.Random) -> Rating:
        chance = self.recall(question, at)
        if rng.random() >= chance:
            rating = Rating.Again
        elif chance < 0.5:
            rating = Rating.Hard
        elif chance < 0.9:
            rating = Rating.Good
        else:
            rating = Rating.Easy
        card = self.true_cards.get(question) or Card(card_id=question + 1, due=at)
        self.true_cards[question], _ = self.memory.review_card(card, rating, at)
        return rating


def learner(seed: int, index: int, questions: int) -> Learner:
    rng = random.Random(f"self-grading-{seed}-{index}")
    weights = list(DEFAULT_PARAMETERS)
    scale = rng.uniform(0.5, 2.0)
    for n in range(4):
        weights[n] = min(100.0, weights[n] * scale)
    weights[8] = min(4.5, max(0.0, weights[8] + rng.uniform(-0.3, 0.3)))
    weights[20] = rng.uniform(0.12, 0.25)
    memory = Scheduler(
        parameters=weights, learning_steps=(), relearning_steps=(), enable_fuzzing=False
    )
    return Learner(memory, [rng.uniform(0.05, 0.6) for _ in range(questions)])


def self_grade(true: Rating, rng: random.Random) -> Grade:
    given = round(int(true) + BIAS + rng.gauss(0.0, SPREAD))
    return Grade(min(4, max(1, given)))


def checklist(good: float, partly: float) -> Callable[[Rating, random.Random], Grade]:
    """Grading from the ticks, with these shares for "good" and "partly"."""

    def grade(true: Rating, rng: random.Random) -> Grade:
        ticked = 0
        for _ in range(KEY_POINTS):
            covered = rng.random() < COVER_CHANCE[true]
            ticked += covered or rng.random() < FALSE_TICK
        return grade_from_coverage(ticked, KEY_POINTS, good=good, partly=partly)

    return grade


def covered_points(true: Rating, rng: random.Random) -> list[bool]:
    """Which key points the answer covers, each with the chance the true outcome sets."""
    return [rng.random() < COVER_CHANCE[true] for _ in range(KEY_POINTS)]


def honest_checklist(true: Rating, rng: random.Random) -> Grade:
    """The grade the key points the answer truly covers propose (the checklist ticked
    without a false tick)."""
    return grade_from_coverage(sum(covered_points(true, rng)), KEY_POINTS)


@dataclass
class Coach:
    """A coach of the given per-key-point precision, recall and leniency, counting its
    ticks (true, false) and the covered points it missed."""

    precision: float
    recall: float
    leniency: float
    true_ticks: int = 0
    false_ticks: int = 0
    missed: int = 0
    grades: int = 0
    kinder: int = 0  # grades above the one the key points truly covered propose

    def false_tick_chance(self) -> float:
        """The chance of ticking a point not covered that makes a share ``precision`` of
        the ticks true, over answers that cover COVERED_SHARE of their points."""
        expected_true = self.recall * COVERED_SHARE
        chance = expected_true * (1 - self.precision) / (self.precision * (1 - COVERED_SHARE))
        return min(1.0, chance)

    def ticks(self, covered: Sequence[bool], rng: random.Random) -> int:
        false_tick = self.false_tick_chance()
        ticked = 0
        for point in covered:
            draw = rng.random()  # one draw a point, so that a better coach ticks a superset
            if point:
                tick = draw < self.recall
                self.true_ticks += tick
                self.missed += not tick
            else:
                tick = draw < false_tick
                self.false_ticks += tick
            ticked += tick
        return ticked

    def grade(self, true: Rating, rng: random.Random) -> Grade:
        covered = covered_points(true, rng)
        grade = grade_from_coverage(self.ticks(covered, rng), KEY_POINTS)
        if rng.random() < self.leniency:
            grade = Grade(min(int(Grade.NAILED), int(grade) + 1))
        self.grades += 1
        self.kinder += grade > grade_from_coverage(sum(covered), KEY_POINTS)
        return grade


GRADERS: dict[str, Callable[[Rating, random.Random], Grade]] = {
    "honest": lambda true, _: Grade(int(true)),
    "self": self_grade,
    "checklist": checklist(GOOD_SHARE, PARTLY_SHARE),
    # other cut-offs (good / partly shares), to choose the shipped ones by
    "ticks-.8/.6": checklist(0.8, 0.6),
    "ticks-.6/.2": checklist(0.6, 0.2),
}


# How FSRS reads "partly" in each set-up (the other grades as shipped).
RATINGS: dict[str, dict[Grade, Rating]] = {
    "partly=Hard": {Grade.PARTLY: Rating.Hard},
    "partly=Again": {Grade.PARTLY: Rating.Again},
}


def model_review(
    question: int, card: MemoryCard | None, rating: Rating, at: datetime
) -> MemoryCard:
    """``bot.learning.memory_model.review`` with the rating given instead of a grade's."""
    before = Card(card_id=question, due=at) if card is None else memory_model.to_fsrs(card)
    after, _ = memory_model.SCHEDULER.review_card(before, rating, at)
    return memory_model.from_fsrs(question, after, 1 if card is None else card.reviews + 1)


def run_learner(job: tuple[int, int, str, str, int, int, int]) -> float:
    """One learner's mean true recall on the last day under one set-up."""
    seed, index, source, mapping, questions, days, per_day = job
    return simulate(seed, index, GRADERS[source], mapping, questions, days, per_day)


CoachJob = tuple[int, int, str | tuple[float, float, float], int, int, int]


def run_coach_learner(job: CoachJob) -> tuple[float, int, int, int, int, int]:
    """One learner's mean true recall on the last day graded by a coach (precision,
    recall, leniency) or by a reference grader ("none": never graded), with "partly" as
    Again; and the coach's true ticks, false ticks, missed points, grades and grades
    kinder than the label's."""
    seed, index, source, questions, days, per_day = job
    if isinstance(source, str):
        grader = None if source == "none" else GRADERS[source]
        recall = simulate(seed, index, grader, COACH_MAPPING, questions, days, per_day)
        return recall, 0, 0, 0, 0, 0
    coach = Coach(*source)
    recall = simulate(seed, index, coach.grade, COACH_MAPPING, questions, days, per_day)
    counts = coach.true_ticks, coach.false_ticks, coach.missed, coach.grades, coach.kinder
    return recall, *counts


def simulate(
    seed: int,
    index: int,
    grade_of: Callable[[Rating, random.Random], Grade] | None,
    mapping: str,
    questions: int,
    days: int,
    per_day: int,
) -> float:
    """One learner's mean true recall on the last day, graded by ``grade_of`` (None: never
    graded, so quizbot has no card of theirs)."""
    person = learner(seed, index, questions)
    rng = random.Random(f"outcomes-{seed}-{index}")  # the same luck in every set-up
    policy = PlannedRecallGain()
    end = START + timedelta(days=days)
    for day in range(days):
        for slot in range(per_day):
            now = START + timedelta(days=day, minutes=10 * slot)
            recent = {
                q
                for q, card in person.model_cards.items()
                if memory_model.reviewed_within(card, now, timedelta(days=1))
            }
            request = PracticeRequest(
                member_id=index,
                candidates=[q for q in range(questions) if q not in recent],
                cards=person.model_cards,
                now=now,
                target=end,
                reviews_per_day=per_day,
            )
            chosen = policy.choose(request)
            if chosen is None:
                break
            true = person.attempt(chosen, now, rng)
            if grade_of is None:
                continue
            grade = grade_of(true, rng)
            rating = RATINGS[mapping].get(grade, grade.rating)
            person.model_cards[chosen] = model_review(
                chosen, person.model_cards.get(chosen), rating, now
            )
    return statistics.fmean(person.recall(q, end) for q in range(questions))


def main(args: argparse.Namespace) -> None:
    if args.coach:
        coach_main(args)
        return
    started = time.perf_counter()
    setups = [(source, mapping) for source in SOURCES for mapping in MAPPINGS]
    jobs = [
        (args.seed, n, source, mapping, args.questions, args.days, args.per_day)
        for source, mapping in setups
        for n in range(args.learners)
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        recalls = list(pool.map(run_learner, jobs, chunksize=4))
    by_setup = {
        setup: recalls[i * args.learners : (i + 1) * args.learners]
        for i, setup in enumerate(setups)
    }
    base = by_setup[BASELINE]
    print(
        f"{args.learners} learners, {args.questions} questions, {args.days} days,"
        f" {args.per_day} practice a day; recall on day {args.days}"
        f" ({time.perf_counter() - started:.0f} s)"
    )
    print(f"{'grades from':<12} {'mapping':<14} {'recall':>7} {'± SE':>7} {'vs self/Hard':>13}")
    for (source, mapping), values in by_setup.items():
        mean = statistics.fmean(values)
        error = statistics.stdev(values) / math.sqrt(len(values))
        paired = [v / b for v, b in zip(values, base, strict=True)]
        ratio = statistics.fmean(paired)
        ratio_error = statistics.stdev(paired) / math.sqrt(len(paired))
        print(
            f"{source:<12} {mapping:<14} {mean:7.3f} {error:7.3f} {ratio:7.3f} ± {ratio_error:.3f}"
        )


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def coach_main(args: argparse.Namespace) -> None:
    """The coach table: each coach quality against the reference graders, learner by
    learner (the same learners and luck)."""
    started = time.perf_counter()
    coaches = [
        (precision, recall, leniency)
        for precision in args.coach_precision
        for recall in args.coach_recall
        for leniency in args.coach_leniency
    ]
    sources: list[str | tuple[float, float, float]] = [*COACH_REFERENCES, *coaches]
    jobs: list[CoachJob] = [
        (args.seed, n, source, args.questions, args.days, args.per_day)
        for source in sources
        for n in range(args.learners)
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(run_coach_learner, jobs, chunksize=4))
    by_source = {
        source: results[i * args.learners : (i + 1) * args.learners]
        for i, source in enumerate(sources)
    }
    recalls = {source: [r[0] for r in rows] for source, rows in by_source.items()}
    print(
        f"{args.learners} learners, {args.questions} questions, {args.days} days,"
        f" {args.per_day} practice a day, partly=Again; recall on day {args.days}"
        f" ({time.perf_counter() - started:.0f} s)"
    )
    print(
        "| grades from | ticks' precision | ticks' recall | kinder than the label"
        " | recall ± SE | vs self ± SE | vs checklist ± SE |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for source in sources:
        values = recalls[source]
        mean, error = mean_and_error(values)
        ratios = [
            mean_and_error([v / b for v, b in zip(values, recalls[base], strict=True)])
            for base in ("self", "checklist")
        ]
        if isinstance(source, str):
            name, measured = source, "| - | - | -"
        else:
            name = "coach p={} r={} lenient={}".format(*source)
            true_ticks = sum(r[1] for r in by_source[source])
            false_ticks = sum(r[2] for r in by_source[source])
            missed = sum(r[3] for r in by_source[source])
            kinder = sum(r[5] for r in by_source[source]) / max(
                1, sum(r[4] for r in by_source[source])
            )
            tick_precision = true_ticks / max(1, true_ticks + false_ticks)
            tick_recall = true_ticks / max(1, true_ticks + missed)
            measured = f"| {tick_precision:.2f} | {tick_recall:.2f} | {kinder:.0%}"
        print(
            f"| {name} {measured} | {mean:.3f} ± {error:.3f} | "
            + " | ".join(f"{ratio:.3f} ± {ratio_error:.3f}" for ratio, ratio_error in ratios)
            + " |"
        )


def shares(text: str) -> list[float]:
    return [float(part) for part in text.split(",")]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--per-day", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--coach", action="store_true", help="the coach table instead")
    parser.add_argument("--coach-precision", type=shares, default=[0.5, 0.7, 0.9])
    parser.add_argument("--coach-recall", type=shares, default=[0.5, 0.7, 0.9])
    parser.add_argument("--coach-leniency", type=shares, default=[0.0, 0.2])
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args())
