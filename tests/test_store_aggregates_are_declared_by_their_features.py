"""Each feature's face names its own store aggregates (``Feature.aggregates``): every
aggregate of the ``Store`` a backend implements (``bot/store.py``) is one feature's, whose
package defines its port, or the core's (the kernel's, the outbox's, the scheduler's).

The ``Store`` itself stays a Protocol written out aggregate by aggregate, so that mypy checks
each backend against it and each face's narrow store protocol against it; this test keeps it
and the faces' declarations from drifting apart."""

from __future__ import annotations

from collections import Counter
from typing import get_type_hints

from bot.features import FEATURES
from bot.kernel.members import MemberIds
from bot.rounds.store import AnswerStore
from bot.store import Store

# the aggregates no feature owns, and the package of their port
CORE_AGGREGATES = {
    "channels": "bot.kernel",
    "meta": "bot.kernel",
    "members": "bot.kernel",
    "deliveries": "bot.kernel",
    "outbox": "bot.outbox",
    "skipped_days": "bot.scheduling",
}


def aggregates_of_the_store() -> dict[str, str]:
    """Each aggregate of the Store, by name, and the module of its port."""
    found = {}
    for name, value in vars(Store).items():
        if isinstance(value, property) and value.fget is not None:
            found[name] = get_type_hints(value.fget)["return"].__module__
    return found


def test_every_aggregate_of_the_store_is_one_features_or_the_cores() -> None:
    declared = Counter(a for f in FEATURES for a in f.aggregates)
    assert [a for a, n in declared.items() if n > 1] == []
    store = aggregates_of_the_store()
    assert len(store) >= 15, "the walk did not see the Store's aggregates"
    assert set(store) == set(declared) | set(CORE_AGGREGATES)
    assert set(declared).isdisjoint(CORE_AGGREGATES)


def test_a_features_aggregate_has_its_port_in_the_features_package() -> None:
    store = aggregates_of_the_store()
    misplaced = {
        f"{f.name}.{aggregate}: {store[aggregate]}"
        for f in FEATURES
        for aggregate in f.aggregates
        if not store[aggregate].startswith(f"bot.{f.name}.")
    } | {
        f"{aggregate}: {store[aggregate]}"
        for aggregate, package in CORE_AGGREGATES.items()
        if not store[aggregate].startswith(f"{package}.")
    }
    assert misplaced == set()


def test_member_ids_come_from_the_members_port_not_the_answers() -> None:
    members = vars(Store)["members"]
    assert get_type_hints(members.fget)["return"] is MemberIds
    assert not hasattr(AnswerStore, "member_id")
