"""`quizbot db migrate` and `quizbot db backup`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from adapters.cli.main import main
from storage.migrations import bundled_migrations

LATEST = bundled_migrations()[-1].version


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.delenv("QUIZBOT_DB_PATH", raising=False)
    monkeypatch.delenv("QUIZBOT_DATABASE_URL", raising=False)


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_migrate_then_migrate_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "quiz.db"
    assert main(["db", "migrate", "--db", str(db)]) == 0
    assert f"migrated from schema version 0 to {LATEST}" in capsys.readouterr().out
    assert main(["db", "migrate", "--db", str(db)]) == 0
    assert f"up to date (version {LATEST})" in capsys.readouterr().out
    assert _version(db) == LATEST


def test_default_database_path_comes_from_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUIZBOT_DB_PATH", str(tmp_path / "from-env.db"))
    assert main(["db", "migrate"]) == 0
    assert (tmp_path / "from-env.db").is_file()
    assert main(["db", "backup", str(tmp_path / "copy.db")]) == 0
    assert "backed up" in capsys.readouterr().out
    assert _version(tmp_path / "copy.db") == LATEST


def test_errors_are_reported_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 42")
    conn.close()
    assert main(["db", "migrate", "--db", str(db)]) == 1
    assert "schema version 42" in capsys.readouterr().err
    assert main(["db", "backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "no database at" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["db"], ["db", "migrate"], ["db", "backup"]])
def test_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--help"])
    assert exit_info.value.code == 0
    assert "usage: quizbot db" in capsys.readouterr().out


def test_copy_help_does_not_promise_a_default_for_its_required_urls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["db", "copy", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--from URL --to URL" in out  # both required
    assert "default" not in out


def test_copy_from_a_missing_sqlite_file_is_refused_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a typo in --from used to create an empty source and report "copied 0 rows", exit 0
    missing, target = tmp_path / "typo.db", tmp_path / "new.db"
    code = main(["db", "copy", "--from", f"sqlite:///{missing}", "--to", f"sqlite:///{target}"])
    assert code == 1
    assert f"no database at {missing}" in capsys.readouterr().err
    assert not missing.exists() and not target.exists()


def test_copy_into_a_missing_directory_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "quiz.db"
    assert main(["db", "migrate", "--db", str(source)]) == 0
    target = tmp_path / "absent" / "new.db"
    code = main(["db", "copy", "--from", f"sqlite:///{source}", "--to", f"sqlite:///{target}"])
    assert code == 1
    assert f"the directory {target.parent} does not exist" in capsys.readouterr().err


def test_copy_takes_plain_file_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "quiz.db", tmp_path / "copy.db"
    assert main(["db", "migrate", "--db", str(source)]) == 0
    capsys.readouterr()
    assert main(["db", "copy", "--from", str(source), "--to", "copy.db"]) == 0
    assert f"from {source} to copy.db; counts match" in capsys.readouterr().out
    assert _version(target) == LATEST
    # a URL of an unknown scheme is still refused, not taken for a file name
    assert main(["db", "copy", "--from", str(source), "--to", "mysql://db/quiz"]) == 1
    assert "unsupported database URL scheme 'mysql'" in capsys.readouterr().err
