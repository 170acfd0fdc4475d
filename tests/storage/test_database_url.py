"""Which database a URL names; SQLite stays the default and needs no PostgreSQL driver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from storage.database import Database, DatabaseUrlError, parse_database


def test_no_url_is_the_sqlite_file_and_sqlite_urls_name_a_path() -> None:
    assert parse_database(None, Path("data/q.db")) == Database("sqlite", "data/q.db")
    assert parse_database("  ", Path("q.db")) == Database("sqlite", "q.db")
    assert parse_database("sqlite:///quizbot.db") == Database("sqlite", "quizbot.db")
    assert parse_database("sqlite:////var/lib/q.db") == Database("sqlite", "/var/lib/q.db")


def test_postgresql_urls_are_kept_and_shown_without_the_password() -> None:
    database = parse_database("postgresql://bot:s3cret@db:5432/quiz")
    assert database.kind == "postgres"
    assert "s3cret" not in str(database) and "bot:***@db:5432/quiz" in str(database)
    assert parse_database("postgres://db/quiz").kind == "postgres"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://db/quiz", "unsupported database URL scheme 'mysql'"),
        ("sqlite:///", "sqlite:/// needs a file"),
        ("quizbot.db", "unsupported database URL scheme"),
    ],
)
def test_other_urls_are_refused_with_what_to_write(url: str, message: str) -> None:
    with pytest.raises(DatabaseUrlError, match=message):
        parse_database(url)


def test_the_default_start_imports_no_postgresql_driver() -> None:
    probe = (
        "import sys, adapters.cli.main, adapters.ops.runtime, storage.database, storage.copy;"
        "print('asyncpg' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
