"""Pack files the command line cannot use are refused in one line, never a traceback:
nesting no pack has, an id the bundled pack holds, a folder it may not write; what it
writes gets the usual file mode; a sheet's problems are all named, each at its line."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.cli.main import main
from questions.loader import bundled_packs_dir
from tests.cli.test_pack_exchange import GOOD_ROW, HEADER
from tests.cli.test_packs_commands import GOOD, SEED


def _run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def usual_umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


BLOCK_600 = "questions:\n" + "".join(f"{'  ' * depth}-\n" for depth in range(600)) + "x\n"


@pytest.mark.parametrize(
    ("nested", "line"),
    [("questions: " + "[" * 600 + "]" * 600, 3), (BLOCK_600, 3 + 100)],
    ids=["flow", "block"],
)
def test_a_pack_nested_600_deep_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], nested: str, line: int
) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text(f"id: deep\ntitle: Deep\n{nested}\n", encoding="utf-8")
    code, out, _ = _run(capsys, "packs", "validate", deep)
    assert code == 1
    (said,) = out.splitlines()
    assert said.startswith(f"{deep}:{line}: (yaml): invalid YAML: nested too deeply")


def test_validate_refuses_a_pack_whose_id_the_bundled_pack_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(GOOD.replace("id: demo", "id: ai-infra"), encoding="utf-8")
    code, out, _ = _run(capsys, "packs", "validate", mine)
    assert code == 1
    bundled = bundled_packs_dir() / "ai-infra.yaml"
    assert out.splitlines() == [
        f"{mine}:1: id: pack id 'ai-infra' is already used by the bundled pack {bundled}"
    ]
    # the bundled pack itself is no clash
    assert _run(capsys, "packs", "validate", bundled)[0] == 0


def test_a_folder_it_may_not_write_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder root may write whatever its mode: the refusal is made here, as the system
    # makes it for a folder that is read-only or belongs to another user.
    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / "locked" / ".tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    out = tmp_path / "locked" / "pack.yaml"
    code, stdout, stderr = _run(capsys, "packs", "import", SEED, "--out", out)
    assert code == 1 and stdout == ""
    assert stderr == f"quizbot packs import: {out}: cannot write: Permission denied\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        code, _, stderr = _run(capsys, "packs", "import", SEED, "--out", locked / "pack.yaml")
    finally:
        locked.chmod(0o755)
    assert code == 1
    assert (
        stderr == f"quizbot packs import: {locked / 'pack.yaml'}: cannot write: Permission denied\n"
    )


@pytest.mark.usefixtures("usual_umask")
def test_written_packs_get_the_usual_file_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "seed.yaml"
    assert _run(capsys, "packs", "import", SEED, "--out", out)[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # 0666 less the umask, not 0600
    sheet = tmp_path / "team.csv"
    sheet.write_text(HEADER + GOOD_ROW, encoding="utf-8")
    kept = tmp_path / "team.yaml"
    kept.write_text("an older pack", encoding="utf-8")
    kept.chmod(0o640)
    assert _run(capsys, "packs", "import-csv", sheet, "--out", kept, "--force")[0] == 0
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640  # a replaced file keeps its mode


def test_a_sheet_names_a_duplicate_id_even_after_a_bad_first_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.csv"
    first = "kv-size,kv-cache,,How large?,,,a | b | c\n"  # no outline
    sheet.write_text(HEADER + first + GOOD_ROW, encoding="utf-8")
    code, out, _ = _run(capsys, "packs", "import-csv", sheet, "--out", tmp_path / "o.yaml")
    assert code == 1
    assert out.splitlines() == [
        f"{sheet}:2: outline: must not be empty",
        f"{sheet}:3: id: duplicate question id 'kv-size' (first at row 2)",
    ]


def test_a_byte_that_is_not_utf8_is_named_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.csv"
    rows = (HEADER + GOOD_ROW).encode() + b"caf\xe9,kv-cache,,Why?,Out.,,a | b | c\n"
    sheet.write_bytes(rows)
    code, _, err = _run(capsys, "packs", "import-csv", sheet, "--out", tmp_path / "o.yaml")
    assert code == 1
    line = (HEADER + GOOD_ROW).count("\n") + 1  # GOOD_ROW's outline cell has a line break
    assert err == f"{sheet}:{line}: (file): not UTF-8 text: byte 0xe9 in column 4\n"
    pack = tmp_path / "pack.yaml"
    pack.write_bytes(GOOD.encode().replace(b"Throughput.", b"Throughput \xff."))
    code, out, _ = _run(capsys, "packs", "validate", pack)
    assert code == 1
    assert out == f"{pack}:7: (file): not UTF-8 text: byte 0xff in column 25\n"
