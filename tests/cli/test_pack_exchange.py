"""`quizbot packs import-csv | export | flags`, through the real argument parser."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest

from adapters.cli.main import main
from questions.loader import load_pack
from storage.sqlite.store import SqliteStore
from tests.cli.workspace_data import approved_question_and_flag

HEADER = "id,topic,difficulty,question,outline,follow_ups,key_points\n"
GOOD_ROW = (
    'kv-size,kv-cache,medium,"How large is the KV cache of a 70B model, per token?",'
    '"2 x 80 layers x 8 KV heads x 128 x 2 bytes = 320 KiB per token.\nAbout 10 GiB at 32k.",'
    "What does GQA change? | What about MQA?,"
    "the per-token formula | GQA divides it | it grows with context\n"
)


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("QUIZBOT_DB_PATH", raising=False)
    monkeypatch.delenv("QUIZBOT_DATABASE_URL", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_import_csv_writes_a_valid_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "team-sheet.csv"
    sheet.write_text("\ufeff" + HEADER + GOOD_ROW + ",,,,,,\n", encoding="utf-8")
    out = tmp_path / "team.yaml"
    code, stdout, _ = _run(capsys, "packs", "import-csv", sheet, "--out", out)
    assert code == 0 and "pack 'team-sheet', 1 question(s)" in stdout
    pack = load_pack(out)
    question = pack.questions[0]
    assert question.follow_up_asks == ("What does GQA change?", "What about MQA?")
    assert [f.notes for f in question.follow_ups] == [None, None]
    assert question.key_points[1] == "GQA divides it"
    assert question.outline.endswith("About 10 GiB at 32k.")
    assert _run(capsys, "packs", "validate", out)[0] == 0


def test_import_csv_reports_every_bad_row_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.csv"
    bad = (
        "Bad Id,kv-cache,extreme,,An outline.,,one | two\n"
        "kv-size,kv-cache,,Again?,Outline.,,a | b | c\n"
    )
    sheet.write_text(HEADER + GOOD_ROW + bad, encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, stdout, stderr = _run(capsys, "packs", "import-csv", sheet, "--out", out)
    assert code == 1 and not out.exists()
    lines = stdout.splitlines()
    assert f"{sheet}:3: id: must be lowercase letters and digits" in lines[0]
    assert f"{sheet}:3: difficulty: must be one of 'easy', 'medium' or 'hard'" in lines[1]
    assert lines[2] == f"{sheet}:3: question: must not be empty"
    assert lines[3] == f"{sheet}:3: key_points: give 3 to 7 key points, not 2"
    assert lines[4] == f"{sheet}:4: id: duplicate question id 'kv-size' (first at row 2)"
    assert "nothing written" in stderr


def test_import_csv_names_missing_and_unknown_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("id,topic,question,outline,answer\nq,t,Q?,O.,A\n", encoding="utf-8")
    code, stdout, _ = _run(capsys, "packs", "import-csv", sheet, "--out", tmp_path / "o.yaml")
    assert code == 1
    assert f"{sheet}:1: answer: unknown column 'answer'" in stdout
    assert f"{sheet}:1: difficulty: missing column" in stdout
    assert f"{sheet}:1: key_points: missing column" in stdout


NOTES_HEADER = HEADER.replace("\n", ",follow_up_notes\n")
NOTES_CELL = '"Divides it by the query heads per KV head.\nAttention quality close to MHA. | "\n'


def test_import_csv_pairs_each_follow_up_with_its_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "noted.csv"
    sheet.write_text(NOTES_HEADER + GOOD_ROW.removesuffix("\n") + "," + NOTES_CELL, "utf-8")
    out = tmp_path / "noted.yaml"
    assert _run(capsys, "packs", "import-csv", sheet, "--out", out)[0] == 0
    gqa, mqa = load_pack(out).questions[0].follow_ups
    assert gqa.note_lines == (
        "Divides it by the query heads per KV head.",
        "Attention quality close to MHA.",
    )
    assert (mqa.ask, mqa.notes) == ("What about MQA?", None)


def test_import_csv_refuses_more_notes_than_follow_ups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "noted.csv"
    row = GOOD_ROW.removesuffix("\n") + ",one | two | three\n"
    sheet.write_text(NOTES_HEADER + row, encoding="utf-8")
    code, stdout, _ = _run(capsys, "packs", "import-csv", sheet, "--out", tmp_path / "o.yaml")
    assert code == 1
    assert stdout.splitlines() == [
        f"{sheet}:2: follow_up_notes: 3 notes for 2 follow-up(s); separate them with ' | '"
    ]


async def _approved_workspace_question(db: Path, **text: str) -> None:
    async with SqliteStore.open(db) as store:
        await approved_question_and_flag(store, **text)


def test_export_round_trips_through_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    asyncio.run(_approved_workspace_question(db))
    out = tmp_path / "team.yaml"
    code, stdout, _ = _run(capsys, "packs", "export", "--workspace", "T1", "--out", out, "--db", db)
    assert code == 0 and "pack 'slack-t1', 1 question(s)" in stdout
    assert _run(capsys, "packs", "validate", out)[0] == 0
    pack = load_pack(out)
    assert [q.id for q in pack.questions] == ["kv-size-s1"]
    assert pack.questions[0].key_points == ("the formula", "GQA", "linear in context")
    assert pack.questions[0].follow_ups[0].note_lines == ("Divides it.", "Quality holds.")
    # an unknown workspace is named, and nothing is written
    code, _, stderr = _run(
        capsys, "packs", "export", "--workspace", "T9", "--out", tmp_path / "x.yaml", "--db", db
    )
    assert code == 1 and "no workspace 'T9'" in stderr and "slack:T1" in stderr
    assert not (tmp_path / "x.yaml").exists()


def test_flags_lists_open_flags_for_maintainers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    asyncio.run(_approved_workspace_question(db))
    code, stdout, _ = _run(capsys, "packs", "flags", "--db", db)
    assert code == 0
    assert stdout.strip() == (
        "f1  2026-11-30  slack:T1  ai-infra/q1  round #1  Alice: 40 GB, not 80"
    )


def test_import_csv_creates_the_output_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's `--out my-packs/team.yaml` works on a fresh checkout."""
    sheet = tmp_path / "team.csv"
    sheet.write_text(HEADER + GOOD_ROW, encoding="utf-8")
    out = tmp_path / "my-packs" / "team.yaml"
    code, _, stderr = _run(capsys, "packs", "import-csv", sheet, "--out", out)
    assert (code, stderr) == (0, "")
    assert out.is_file()


def test_an_output_path_under_a_file_is_refused_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "team.csv"
    sheet.write_text(HEADER + GOOD_ROW, encoding="utf-8")
    (tmp_path / "notes").write_text("a file, not a folder")
    out = tmp_path / "notes" / "t.yaml"
    code, _, stderr = _run(capsys, "packs", "import-csv", sheet, "--out", out)
    assert code == 1
    assert "notes is a file, not a directory" in stderr


@pytest.mark.parametrize("command", [["flags"], ["export", "--workspace", "T1", "--out", "x.yaml"]])
def test_reading_commands_never_create_a_database(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.db"
    code, _, stderr = _run(capsys, "packs", *command, "--db", missing)
    assert code == 1
    assert f"no database at {missing}" in stderr
    assert not missing.exists()


def test_reading_commands_never_migrate_an_older_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(old)) as conn:
        conn.execute("PRAGMA user_version = 1")
    code, _, stderr = _run(capsys, "packs", "flags", "--db", old)
    assert code == 1 and "run `quizbot db migrate` first" in stderr
    with contextlib.closing(sqlite3.connect(old)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1


def test_flags_and_export_read_the_database_of_the_database_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "elsewhere" / "quiz.db"
    db.parent.mkdir()
    asyncio.run(_approved_workspace_question(db))
    monkeypatch.setenv("QUIZBOT_DATABASE_URL", f"sqlite:///{db}")
    code, stdout, stderr = _run(capsys, "packs", "flags")
    assert (code, stderr) == (0, "")
    assert stdout.startswith("f1  2026-11-30  slack:T1  ai-infra/q1")
    out = tmp_path / "team.yaml"
    code, stdout, stderr = _run(capsys, "packs", "export", "--workspace", "T1", "--out", out)
    assert (code, stderr) == (0, "")
    assert [q.id for q in load_pack(out).questions] == ["kv-size-s1"]
    assert not (tmp_path / "quizbot.db").exists()


def test_member_text_is_printed_with_control_characters_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "quiz.db"
    name = "Mallory\x1b[8m"
    reason = 'wrong\x1b]0;owned\x07 "size"\nf2  2026-11-30  slack:T1  fake  \u202eflag\t\r'
    asyncio.run(_approved_workspace_question(db, member=name, reason=reason))
    code, stdout, _ = _run(capsys, "packs", "flags", "--db", db)
    assert code == 0
    [line] = stdout.splitlines()
    assert line.endswith(
        'Mallory\\x1b[8m: wrong\\x1b]0;owned\\x07 "size"\\nf2  2026-11-30  slack:T1  fake'
        "  \\u202eflag\\t\\r"
    )
    assert not any(ord(char) < 32 or char == "\u202e" for char in stdout.removesuffix("\n"))
