"""The Store port is split by aggregate, and SQLite implements each part on its own,
so a second backend can be written one aggregate at a time."""

from __future__ import annotations

import inspect

import pytest

from bot.kernel.stores import ChannelStore, DeliveryStore, MetaStore
from bot.outbox.store import OutboxStore
from bot.recaps.store import RecapStore
from bot.rounds.store import AnswerStore, ReportStore, RoundStore
from bot.store import Store
from storage.postgres_store import PostgresStore
from storage.sqlite_channels import SqliteChannels
from storage.sqlite_members import SqliteMembers
from storage.sqlite_recaps import SqliteRecapStore
from storage.sqlite_reports import SqliteReports
from storage.sqlite_rounds import SqliteRounds
from storage.sqlite_store import SqliteStore

PARTS: list[tuple[type, type]] = [
    (ChannelStore, SqliteChannels),
    (MetaStore, SqliteChannels),
    (RoundStore, SqliteRounds),
    (OutboxStore, SqliteStore),
    (AnswerStore, SqliteMembers),
    (DeliveryStore, SqliteMembers),
    (ReportStore, SqliteReports),
]


def methods(port: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(port) if not name.startswith("_")}


def test_every_store_method_belongs_to_exactly_one_aggregate() -> None:
    parts = [methods(port) for port, _ in PARTS]
    assert sum(len(p) for p in parts) == len(set().union(*parts))
    # aggregates with a store of their own are reached as properties (``store.learning``)
    aggregates = {n for n, value in vars(Store).items() if isinstance(value, property)}
    assert aggregates | {"close"} == methods(Store)


@pytest.mark.parametrize(("port", "implementation"), PARTS)
def test_each_sqlite_aggregate_implements_its_port_alone(port: type, implementation: type) -> None:
    for name in methods(port):
        ours = getattr(implementation, name)
        assert inspect.signature(ours).parameters.keys() == (
            inspect.signature(getattr(port, name)).parameters.keys()
        ), name


def typed_recaps(recaps: SqliteRecapStore) -> RecapStore:
    """Checked by mypy: the SQLite recap aggregate satisfies its port."""
    return recaps


def typed_parts(
    channels: SqliteChannels, rounds: SqliteRounds, members: SqliteMembers, reports: SqliteReports
) -> tuple[ChannelStore, RoundStore, AnswerStore, ReportStore]:
    """Checked by mypy: each SQLite aggregate satisfies its port."""
    return channels, rounds, members, reports


def typed_postgres(store: PostgresStore) -> Store:
    """Checked by mypy: the PostgreSQL store satisfies the whole port."""
    return store
