"""The Store port is split by aggregate, each backend builds one object per aggregate, and
the two backends stand alone: no PostgreSQL class inherits a SQLite one, so a method
added to one backend is never silently the other's."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType

import pytest

import storage.postgres
import storage.sqlite
from adapters.unfinished_sends import SendProgress
from bot.kernel.installations import InstallationStore
from bot.store import Store
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store

# What the backends expose beside the port's aggregates: the Slack installations and the
# progress of long sends, which adapters use.
ADAPTER_AGGREGATES: dict[str, type] = {
    "installations": InstallationStore,
    "unfinished_cards": SendProgress,
}


def methods(port: type) -> set[str]:
    return {
        name
        for name, value in inspect.getmembers(port)
        if not name.startswith("_") and inspect.isfunction(value)
    }


def aggregate_ports() -> dict[str, type]:
    """Each aggregate of the ``Store`` port (its properties) and the port it returns."""
    hints = {
        name: typing.get_type_hints(value.fget)["return"]
        for name, value in vars(Store).items()
        if isinstance(value, property)
    }
    return {**hints, **ADAPTER_AGGREGATES}


def satisfies(value: object, port: type) -> bool:
    return all(callable(getattr(value, method, None)) for method in methods(port))


def backend_modules(package: ModuleType) -> list[ModuleType]:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    ]


def classes_of(package: ModuleType) -> list[type]:
    return [
        value
        for module in backend_modules(package)
        for value in vars(module).values()
        if inspect.isclass(value) and value.__module__ == module.__name__
    ]


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


def test_every_store_method_belongs_to_exactly_one_aggregate() -> None:
    parts = [methods(port) for port in aggregate_ports().values()]
    assert sum(len(p) for p in parts) == len(set().union(*parts))
    assert methods(Store) == {"close"}  # the rest is reached by aggregate: store.rounds


def test_no_postgresql_class_inherits_a_sqlite_class() -> None:
    sqlite_classes = set(classes_of(storage.sqlite))
    postgres_classes = classes_of(storage.postgres)
    assert sqlite_classes and postgres_classes
    for cls in postgres_classes:
        assert not sqlite_classes & set(cls.__mro__), cls


def test_neither_store_class_has_aggregate_methods_of_its_own() -> None:
    aggregate_methods = set().union(*(methods(port) for port in aggregate_ports().values()))
    for store_class in (SqliteStore, PostgresStore):
        assert store_class.__mro__ == (store_class, object)
        assert not methods(store_class) & aggregate_methods, store_class


async def test_the_store_exposes_exactly_the_aggregates_of_the_port(store: Store) -> None:
    ports = aggregate_ports()
    exposed = {
        name
        for name, value in vars(store).items()
        if any(satisfies(value, port) for port in ports.values())
    }
    assert exposed == set(ports)
    # one object per aggregate: none stands for another (or for the store)
    assert len({id(getattr(store, name)) for name in ports} | {id(store)}) == len(ports) + 1


async def test_each_aggregate_implements_its_port_with_the_same_signatures(store: Store) -> None:
    for name, port in aggregate_ports().items():
        implementation = getattr(store, name)
        ours = {
            method
            for method, value in inspect.getmembers(type(implementation))
            if not method.startswith("_") and inspect.isfunction(value)
        }
        assert ours == methods(port), name
        for method in ours:
            assert inspect.signature(getattr(implementation, method)) == inspect.signature(
                getattr(port, method).__get__(implementation)
            ), f"{name}.{method}"


def typed_sqlite(store: SqliteStore) -> Store:
    """Checked by mypy: the SQLite store satisfies the whole port."""
    return store


def typed_postgres(store: PostgresStore) -> Store:
    """Checked by mypy: the PostgreSQL store satisfies the whole port."""
    return store


def typed_adapter_aggregates(
    store: SqliteStore | PostgresStore,
) -> tuple[InstallationStore, SendProgress]:
    """Checked by mypy: both backends' installations and card progress satisfy their ports."""
    return store.installations, store.unfinished_cards
