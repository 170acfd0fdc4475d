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

    PYTHONPATH=. python bench/self_grading.py [--learners 40] [--days 90] [--questions 60]
                                              [--per-day 2] [--seed 1] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
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
    person = learner(seed, index, questions)
    rng = random.Random(f"outcomes-{seed}-{index}")  # the same luck in every set-up
    policy = PlannedRecallGain()
    end = START + timedelta(days=days)
    grade_of = GRADERS[source]
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
            grade = grade_of(true, rng)
            rating = RATINGS[mapping].get(grade, grade.rating)
            person.model_cards[chosen] = model_review(
                chosen, person.model_cards.get(chosen), rating, now
            )
    return statistics.fmean(person.recall(q, end) for q in range(questions))


def main(args: argparse.Namespace) -> None:
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


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--per-day", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args())
