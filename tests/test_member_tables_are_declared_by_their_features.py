"""Each feature's face declares the tables it owns that name a member, erased or kept with
the reason; the erasure's lists are gathered from the faces, never written by hand.

The storage keeps its own list of every table, in foreign-key order, for ``quizbot db
copy`` (``storage.copy.TABLES``: storage implements the core's ports and does not import
the composition root); it is checked here against what the faces declare, and against the
schema in ``tests/storage/test_migrations.py``.
"""

from __future__ import annotations

import pytest

from bot.feature import ErasedTable, Feature, KeptTable, erased_tables, kept_tables
from bot.features import ERASED_TABLES, FEATURES, KEPT_TABLES
from storage.copy import TABLES as COPIED_TABLES


def test_every_declared_member_table_is_a_table_the_copy_takes() -> None:
    declared = {t.table.split(".")[0] for f in FEATURES for t in f.member_tables}
    assert len(declared) >= 20, "the faces declare the member tables"
    assert declared - set(COPIED_TABLES) == set()


def test_the_erasure_lists_are_the_faces_declarations() -> None:
    by_face = {f.name: f.member_tables for f in FEATURES}
    assert ErasedTable("reminders") in by_face["reminders"]
    assert "reminders" in ERASED_TABLES
    assert any(t.table == "pair_groups" for t in by_face["pairing"])
    assert KEPT_TABLES["pair_groups"].startswith("a partner's history")
    assert all(reason.strip() for reason in KEPT_TABLES.values())


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (ErasedTable("grades"), ErasedTable("grades")),
        (KeptTable("members", "a reason"), KeptTable("members", "another")),
    ],
)
def test_two_features_may_not_declare_one_table(
    first: ErasedTable | KeptTable, second: ErasedTable | KeptTable
) -> None:
    features: tuple[Feature[object], ...] = (
        Feature("a", member_tables=(first,)),
        Feature("b", member_tables=(second,)),
    )
    with pytest.raises(ValueError, match="two features"):
        (erased_tables if isinstance(first, ErasedTable) else kept_tables)(features)
