"""The weekly matching of mock-interview partners: pure, deterministic given a seed.

The rules, in order (Donut's first): no member meets a past partner while someone new is
possible for them (among repeats, the fewest times and the longest ago first), then
partners who share topics, then partners whose timezones are close. An odd member joins a
group of three.

A greedy matching with a bounded candidate search keeps it near-linear: the members are
ordered so that those alike (same topics, nearby timezones) sit side by side, and each
takes the best of the next ``window`` members still free, looking further only when all
of those are past partners; a repair pass then swaps partners between two pairs wherever
that removes a repeat. Pairing 10,000 members takes well under a second.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WINDOW = 32  # candidates looked at for each member
FURTHER = 8  # ...and up to this many windows more while every one is a past partner
SMALL = 64  # a pool this small is searched whole: the best of every free member
SEARCH_STEPS = 20_000  # of the search for a pairing of a small pool with no repeat at all
REPAIR_TRIES = 256  # other pairs a repeated pair tries to swap partners with

# Costs, lower is better. A repeat outweighs anything else; among repeats the fewest
# times, then the longest ago; then each shared topic (up to five) outweighs the widest
# gap between timezones (12 hours).
REPEAT = 1_000_000.0
RECENT = 1_000.0
TOPIC = 13.0
MAX_SHARED = 5


@dataclass(frozen=True, slots=True)
class Candidate:
    """A member to pair: their topics and their timezone's offset from UTC in hours."""

    member_id: int
    topics: frozenset[str] = frozenset()
    utc_offset: float = 0.0


class PairHistory:
    """Who met whom before: the count of past meetings of each two members and the index
    of the last (pairings numbered from 0, oldest first)."""

    def __init__(self, groups: Iterable[Sequence[int]] = ()) -> None:
        self._met: dict[tuple[int, int], tuple[int, int]] = {}
        self._partners: dict[int, set[int]] = {}
        self.pairings = 0
        for group in groups:
            self.add([group])

    def add(self, groups: Iterable[Sequence[int]]) -> None:
        """One more pairing's groups (every two members of a group met)."""
        index = self.pairings
        for group in groups:
            for a_at, a in enumerate(group):
                for b in group[a_at + 1 :]:
                    key = (a, b) if a < b else (b, a)
                    times, _ = self._met.get(key, (0, 0))
                    self._met[key] = (times + 1, index)
                    self._partners.setdefault(a, set()).add(b)
                    self._partners.setdefault(b, set()).add(a)
        self.pairings += 1

    def met(self, a: int, b: int) -> tuple[int, int] | None:
        """(times, last pairing index) of two members' meetings; None: never met."""
        return self._met.get((a, b) if a < b else (b, a))

    def partners(self, member_id: int) -> set[int]:
        return self._partners.get(member_id, set())


def pair(
    members: Sequence[Candidate], history: PairHistory, seed: int, *, window: int = WINDOW
) -> list[tuple[int, ...]]:
    """This week's groups: pairs, and one trio when the count is odd; each group's members
    in an order where each interviews the next (the last the first). One member alone
    gets no group."""
    if len(members) < 2:
        return []
    rng = random.Random(seed)
    shuffled = list(members)
    rng.shuffle(shuffled)
    # alike side by side: the same topics, then nearby timezones (stable: ties stay shuffled)
    order = sorted(shuffled, key=lambda c: (sorted(c.topics), c.utc_offset))
    matcher = _Matcher(order, history)
    if len(order) <= SMALL:
        pairs = matcher.match_exact() or matcher.match_whole()
    else:
        pairs = matcher.match_windowed(window)
    matcher.repair(pairs, rng)
    groups: list[tuple[int, ...]] = [tuple(order[i].member_id for i in p) for p in pairs]
    if matcher.left_over is not None:
        groups = matcher.add_to_trio(groups, pairs, matcher.left_over)
    return groups


class _Matcher:
    def __init__(self, order: list[Candidate], history: PairHistory) -> None:
        self.order = order
        self.history = history
        self.left_over: int | None = None

    def cost(self, a: int, b: int) -> float:
        one, other = self.order[a], self.order[b]
        met = self.history.met(one.member_id, other.member_id)
        total = 0.0
        if met is not None:
            times, last = met
            total += REPEAT * times + RECENT * (last + 1)
        shared = len(one.topics & other.topics)
        gap = abs(one.utc_offset - other.utc_offset) % 24
        return total - TOPIC * min(shared, MAX_SHARED) + min(gap, 24 - gap)

    def match_exact(self) -> list[tuple[int, int]] | None:
        """A pairing of the whole pool with no repeat, if the search finds one within
        SEARCH_STEPS (a greedy choice can leave some members only past partners when a
        repeat-free pairing exists): the member with the fewest new partners left chooses
        first, each trying the cheapest first. None: none found."""
        count = len(self.order)
        new = [self._new_partners(a, count) for a in range(count)]
        free = set(range(count))
        pairs: list[tuple[int, int]] = []
        steps = 0
        spare = count % 2  # an odd pool leaves one member over, for a trio

        left: list[int] = []  # the member left over of an odd pool, once chosen

        def search() -> bool:
            nonlocal steps
            if not free:
                return True
            steps += 1
            if steps > SEARCH_STEPS:
                return False
            a = min(free, key=lambda m: (sum(1 for b in new[m] if b in free), m))
            free.discard(a)
            for b in new[a]:
                if b in free:
                    free.discard(b)
                    pairs.append((a, b))
                    if search():
                        return True
                    pairs.pop()
                    free.add(b)
            if len(left) < spare:  # ``a`` is the one left over
                left.append(a)
                if search():
                    return True
                left.pop()
            free.add(a)
            return False

        if search():
            self.left_over = left[0] if left else None
            return pairs
        self.left_over = None
        return None

    def _new_partners(self, a: int, count: int) -> list[int]:
        """The members ``a`` never met, cheapest first."""
        costs = [(self.cost(a, b), b) for b in range(count) if b != a]
        return [b for cost, b in sorted(costs) if cost < REPEAT]

    def match_whole(self) -> list[tuple[int, int]]:
        """Every free member considered: the most constrained (most past partners here)
        chooses first."""
        present = {c.member_id for c in self.order}
        constrained = sorted(
            range(len(self.order)),
            key=lambda i: -len(self.history.partners(self.order[i].member_id) & present),
        )
        free = set(range(len(self.order)))
        pairs: list[tuple[int, int]] = []
        for a in constrained:
            if a not in free:
                continue
            free.discard(a)
            if not free:
                self.left_over = a
                break
            b = min(sorted(free), key=lambda c: self.cost(a, c))
            free.discard(b)
            pairs.append((a, b))
        return pairs

    def match_windowed(self, window: int) -> list[tuple[int, int]]:
        """Each member in order takes the best of the next ``window`` free members."""
        count = len(self.order)
        following = list(range(1, count + 1))  # a linked list of the free members
        preceding = list(range(-1, count - 1))
        free = [True] * count

        def take(i: int) -> None:
            free[i] = False
            before, after = preceding[i], following[i]
            if before >= 0:
                following[before] = after
            if after < count:
                preceding[after] = before

        pairs: list[tuple[int, int]] = []
        for a in range(count):
            if not free[a]:
                continue
            take(a)
            best, best_cost = -1, 0.0
            b, looked = following[a], 0
            while b < count and (
                looked < window or (best_cost >= REPEAT and looked < window * (1 + FURTHER))
            ):
                cost = self.cost(a, b)
                if best < 0 or cost < best_cost:
                    best, best_cost = b, cost
                b, looked = following[b], looked + 1
            if best < 0:
                self.left_over = a
                break
            take(best)
            pairs.append((a, best))
        return pairs

    def repair(self, pairs: list[tuple[int, int]], rng: random.Random) -> None:
        """Swap partners between a repeated pair and another pair where both new pairs are
        first meetings (in place)."""
        repeated = [i for i, (a, b) in enumerate(pairs) if self.cost(a, b) >= REPEAT]
        if not repeated:
            return
        for i in repeated:
            a, b = pairs[i]
            if self.cost(a, b) < REPEAT:
                continue  # mended by an earlier swap
            others = range(len(pairs))
            tries = (
                list(others)
                if len(pairs) <= REPAIR_TRIES
                else rng.sample(range(len(pairs)), REPAIR_TRIES)
            )
            for j in tries:
                if j == i:
                    continue
                c, d = pairs[j]
                if self.cost(a, c) < REPEAT and self.cost(b, d) < REPEAT:
                    pairs[i], pairs[j] = (a, c), (b, d)
                    break
                if self.cost(a, d) < REPEAT and self.cost(b, c) < REPEAT:
                    pairs[i], pairs[j] = (a, d), (b, c)
                    break

    def add_to_trio(
        self, groups: list[tuple[int, ...]], pairs: list[tuple[int, int]], extra: int
    ) -> list[tuple[int, ...]]:
        """The member left over joins the pair it costs least with (of the last pairs
        formed at most: those are its neighbours in the order)."""
        if not pairs:
            return groups
        start = max(0, len(pairs) - WINDOW)
        best = min(
            range(start, len(pairs)),
            key=lambda j: self.cost(extra, pairs[j][0]) + self.cost(extra, pairs[j][1]),
        )
        groups[best] = (*groups[best], self.order[extra].member_id)
        return groups
