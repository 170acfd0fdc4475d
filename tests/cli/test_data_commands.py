"""`quizbot data export --channel` writes a channel's tables as CSV; `quizbot data forget
--member` erases a member as `/quiz forget me` does, and says what it deleted."""

from __future__ import annotations

import asyncio
import csv
from pathlib import Path

import pytest

from adapters.cli.main import main
from storage.sqlite.store import SqliteStore
from tests.storage.test_member_data_store import populate
from tests.storage.test_store import member


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.delenv("QUIZBOT_DB_PATH", raising=False)
    monkeypatch.delenv("QUIZBOT_DATABASE_URL", raising=False)


def a_quiz(path: Path) -> int:
    """A database with alice's and bob's answers in channel C1; alice's member id."""

    async def fill() -> int:
        async with SqliteStore.open(path) as store:
            bob = await member(store, "bob")
            alice, _ = await populate(store, "alice", bob)
            return alice

    return asyncio.run(fill())


def test_export_writes_one_csv_per_table_of_the_channel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    a_quiz(db)
    out = tmp_path / "export"

    assert main(["data", "export", "--channel", "C1", "--out", str(out), "--url", str(db)]) == 0

    assert "wrote 5 CSV files" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        "answers.csv",
        "grades.csv",
        "reviews.csv",
        "rounds.csv",
        "votes.csv",
    ]
    with (out / "answers.csv").open(encoding="utf-8") as f:
        answers = list(csv.DictReader(f))
    assert sorted(a["text"] for a in answers) == ["answer alice-m1", "answer alice-o1"]


def test_export_of_an_unknown_channel_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    a_quiz(db)
    code = main(["data", "export", "--channel", "C9", "--out", str(tmp_path), "--url", str(db)])
    assert code == 1
    assert "no channel 'C9' is stored" in capsys.readouterr().err


def test_forget_erases_the_member_and_spares_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    alice = a_quiz(db)

    assert main(["data", "forget", "--member", "U-alice", "--url", str(db)]) == 0

    said = capsys.readouterr().out
    assert said.startswith("erased slack:T1:U-alice:") and "answers 1" in said

    async def left() -> tuple[int, int]:
        async with SqliteStore.open(db) as store:
            mine = await store.member_data.member_tables(alice)
            answers = await store.database.fetch("SELECT COUNT(*) FROM answers", ())
            kept = ("members", "votes_given")  # the vote she gave stays in bob's points
            return sum(len(r) for t, r in mine.items() if t not in kept), int(answers[0][0])

    assert asyncio.run(left()) == (0, 1)  # bob's answer stays
    assert main(["data", "forget", "--member", "U-nobody", "--url", str(db)]) == 1
    assert "no member 'U-nobody' is stored" in capsys.readouterr().err


def test_export_and_forget_take_db_like_every_other_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    a_quiz(db)
    out = tmp_path / "export"

    assert main(["data", "export", "--channel", "C1", "--out", str(out), "--db", str(db)]) == 0
    assert "wrote 5 CSV files" in capsys.readouterr().out
    assert main(["data", "forget", "--member", "U-alice", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith("erased slack:T1:U-alice:")
    assert not (tmp_path / "quizbot.db").exists()  # nothing read or made at the default place


def test_an_unknown_channel_is_refused_with_the_channels_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    a_quiz(db)
    code = main(["data", "export", "--channel", "C9", "--out", str(tmp_path), "--url", str(db)])
    assert code == 1
    said = capsys.readouterr().err
    assert "no channel 'C9' is stored" in said
    assert "stored channels: C1 (slack, workspace T1)" in said


def test_a_mistyped_database_is_refused_and_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "quiz-typo.db"
    code = main(["data", "forget", "--member", "U-alice", "--db", str(typo)])
    assert code == 1
    assert f"no database at {typo}" in capsys.readouterr().err
    assert not typo.exists()


def test_a_setting_it_cannot_use_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a setting the data commands read (they read no platform's, such as its token)
    monkeypatch.setenv("QUIZBOT_OUTBOX_LEASE_SECONDS", "SECRET-TEST")
    assert main(["data", "forget", "--member", "U-alice"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("quizbot data forget: error: QUIZBOT_OUTBOX_LEASE_SECONDS: ")
    assert len(err.splitlines()) == 1 and "SECRET" not in err
