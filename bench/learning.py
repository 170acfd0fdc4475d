"""The learning loop on simulated learners: does practice chosen by the shipped policy help?

Ten learners share one channel for 90 days on a synthetic bank of 60 questions. Each
learner's true memory follows the FSRS forgetting curve with hidden parameters of their
own (initial stabilities, stability growth and decay drawn from a seeded source) and a
prior recall of 0.1-0.3 for each question they have never seen. On weekdays each learner
answers the channel's question with probability 0.7, and on 70% of weekdays practises 2
questions more. Answers and grades are honest, with noise.

Everything runs through the real core: ``QuizService`` on a SQLite store with a
FakePlatform and an injected clock; rounds come from ``/quiz now``, answers are thread
replies, the reveal is a 💡 reaction, channel grades are ``/quiz grade`` commands and
practice is ``LearningService.choose_practice`` then ``LearningService.grade``. Five
set-ups, with the same learners, activity and seeds:

    (a) channel-only   the channel question, no practice
    (b) shipped        plus practice chosen by the shipped policy (expected recall gain
                       on the learner's goal date, set with /quiz goal to day 90, counting
                       the practice still to come at the learner's pace)
    (c) round-robin    plus practice in bank order
    (d) due-first      plus FSRS "due first" practice (cards due at 90% retention first,
                       then new questions in bank order)
    (e) one-review     plus practice by expected recall gain as if nothing were practised
                       after it (the shipped rule without the practice to come)

It prints the mean probability, over learners and bank questions, of recalling the
answer on day 90, per seed and averaged over the seeds, and last:
``learning: shipped B channel-only A round-robin C due-first D vs-channel X vs-round-robin Y``.
Targets: vs-channel >= 1.3 and vs-round-robin >= 1.02.

    PYTHONPATH=. python bench/learning.py [--seeds 5] [--first-seed 1] [--learners 10]
                                          [--days 90] [--questions 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from bot.kernel.config import QuizConfig
from bot.kernel.events import Command, Reaction, Reply
from bot.kernel.grades import Grade
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.learning.practice_policy import ExpectedRecallGain, PracticePolicy, PracticeRequest
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
SETUPS = ("channel-only", "shipped", "round-robin", "due-first", "one-review")
TARGET_VS_CHANNEL = 1.3
TARGET_VS_ROUND_ROBIN = 1.02


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

    def attempt(self, question: int, at: datetime, rng: random.Random) -> Grade:
        """Try to recall the answer, see the outline (a review of the true memory) and
        return the grade the learner gives themselves: honest, with noise."""
        chance = self.recall(question, at)
        if rng.random() >= chance:
            rating = Rating.Again
        elif chance < 0.5:
            rating = Rating.Hard
        elif chance < 0.9:
            rating = Rating.Good
        else:
            rating = Rating.Easy
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
        priors = {q: rng.uniform(0.1, 0.3) for q in range(questions)}
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


class DueFirst:
    """Textbook FSRS: the most overdue card (due at 90% retention) first, then new ones in
    bank order, then the card due soonest."""

    def choose(self, request: PracticeRequest) -> int | None:
        cards = request.cards
        due = [q for q in request.candidates if q in cards and cards[q].due <= request.now]
        if due:
            return min(due, key=lambda q: (cards[q].due, q))
        new = [q for q in request.candidates if q not in cards]
        if new:
            return new[0]
        return min(request.candidates, key=lambda q: (cards[q].due, q), default=None)


COMPARED_POLICIES: dict[str, Callable[[], PracticePolicy]] = {
    "round-robin": RoundRobin,
    "due-first": DueFirst,
    "one-review": ExpectedRecallGain,
}


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


async def simulate(seed: int, setup: str, args: argparse.Namespace, workdir: Path) -> float:
    """The mean recall on the last day of one set-up for one seed."""
    catalog = Catalog([synthetic_pack(args.questions)])
    clock = FakeClock(START)
    platform = FakePlatform()
    people = learners(seed, args.learners, args.questions)
    outcomes = random.Random(f"outcomes-{seed}")
    end = START + timedelta(days=args.days)
    async with SqliteStore.open(workdir / f"{setup}-{seed}.db") as store:
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
        ids = [await store.answers.member_id(m) for m in members]
        ids_by_key = await store.rounds.sync_questions(catalog.keys())
        bank_index = {ids_by_key[("bench", f"q-{n}")]: n for n in range(args.questions)}
        for member in members:
            await run.command(member, f"goal {end.date().isoformat()}")
        learning = service.learning  # the shipped policy
        compared = COMPARED_POLICIES.get(setup)
        if compared is not None:
            learning = LearningService(store.learning, service.engine.question_topics, compared())
        for day in activity(seed, args.learners, args.days):
            if day.at >= end:
                break
            clock.set(day.at + timedelta(hours=1))
            answering = [(members[n], people[n]) for n in range(args.learners) if day.answers[n]]
            await run.channel_round(admin, answering, bank_index, outcomes)
            if setup == "channel-only":
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
        await service.stop()
    return statistics.fmean(
        learner.recall(q, end) for learner in people for q in range(args.questions)
    )


async def main(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    results: dict[str, list[float]] = {setup: [] for setup in SETUPS}
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            # The set-ups of a seed are independent runs (own database, clock and
            # platform): run side by side, one waits on SQLite while another computes.
            recalls = await asyncio.gather(
                *(simulate(seed, setup, args, Path(directory)) for setup in SETUPS)
            )
            for setup, recall in zip(SETUPS, recalls, strict=True):
                results[setup].append(recall)
            row = " ".join(f"{s} {r:.3f}" for s, r in zip(SETUPS, recalls, strict=True))
            print(f"seed {seed}: {row}", flush=True)
    mean = {setup: statistics.fmean(values) for setup, values in results.items()}
    vs_channel = mean["shipped"] / mean["channel-only"]
    vs_round_robin = mean["shipped"] / mean["round-robin"]
    print(
        f"{args.learners} learners, {args.questions} questions, {args.days} days, "
        f"{args.seeds} seeds in {time.perf_counter() - started:.0f} s; "
        f"vs-channel {vs_channel:.4f} (target >= {TARGET_VS_CHANNEL}: "
        f"{'met' if vs_channel >= TARGET_VS_CHANNEL else 'MISSED'}), "
        f"vs-round-robin {vs_round_robin:.4f} (target >= {TARGET_VS_ROUND_ROBIN}: "
        f"{'met' if vs_round_robin >= TARGET_VS_ROUND_ROBIN else 'MISSED'}); "
        f"one-review {mean['one-review']:.3f}, "
        f"vs-one-review {mean['shipped'] / mean['one-review']:.4f}"
    )
    print(
        f"learning: shipped {mean['shipped']:.3f} channel-only {mean['channel-only']:.3f} "
        f"round-robin {mean['round-robin']:.3f} due-first {mean['due-first']:.3f} "
        f"vs-channel {vs_channel:.2f} vs-round-robin {vs_round_robin:.2f}"
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1, help="seeds first..first+seeds-1")
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--questions", type=int, default=60)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
