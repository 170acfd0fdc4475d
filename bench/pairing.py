"""The weekly matching of mock-interview partners, measured.

1,000 members of one channel paired every week for 52 weeks: how many pairs met before
(the goal is none while the pool allows: 999 possible partners, 52 weeks), how many share
a topic; then the time to pair 10,000 members once, on one core.

    python bench/pairing.py
"""

from __future__ import annotations

import random
import time

from bot.pairing.matching import Candidate, PairHistory, pair

TOPICS = ("gpu", "networking", "storage", "scheduling", "inference", "training", "rdma", "k8s")
OFFSETS = (-8.0, -5.0, 0.0, 1.0, 2.0, 5.5, 8.0, 9.0)


def members(count: int, seed: int) -> list[Candidate]:
    rng = random.Random(seed)
    return [
        Candidate(
            member_id=i,
            topics=frozenset(rng.sample(TOPICS, rng.randint(1, 3))),
            utc_offset=rng.choice(OFFSETS),
        )
        for i in range(1, count + 1)
    ]


def year_of_pairings(count: int = 1_000, weeks: int = 52) -> None:
    pool = members(count, seed=1)
    history = PairHistory()
    repeats = shared = groups_total = trios = 0
    slowest = 0.0
    for week in range(weeks):
        started = time.perf_counter()
        groups = pair(pool, history, seed=week)
        slowest = max(slowest, time.perf_counter() - started)
        by_id = {c.member_id: c for c in pool}
        for group in groups:
            groups_total += 1
            trios += len(group) == 3
            for at, a in enumerate(group):
                for b in group[at + 1 :]:
                    repeats += history.met(a, b) is not None
                    shared += bool(by_id[a].topics & by_id[b].topics)
        history.add(groups)
    print(
        f"{count:,} members, {weeks} weekly pairings: {repeats} repeat pairs,"
        f" {groups_total:,} groups ({trios} trios), {shared:,} pairs sharing a topic,"
        f" slowest week {slowest * 1000:.0f} ms"
    )


def time_to_pair(count: int = 10_000) -> None:
    pool = members(count, seed=2)
    history = PairHistory()
    for week in range(4):  # a little history, as a running channel has
        history.add(pair(pool, history, seed=100 + week))
    best = float("inf")
    for run in range(3):
        started = time.perf_counter()
        groups = pair(pool, history, seed=run)
        best = min(best, time.perf_counter() - started)
    paired = sum(len(g) for g in groups)
    print(f"pairing {count:,} members ({paired:,} paired): {best:.3f} s (best of 3, one core)")


if __name__ == "__main__":
    year_of_pairings()
    time_to_pair()
