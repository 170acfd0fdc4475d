"""`quizbot packs validate | import | list`, driven through the real argument parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli.main import main
from questions.loader import bundled_packs_dir, load_pack

SEED = Path(__file__).resolve().parents[1] / "data" / "seed_ai_infra.txt"
GOOD = """\
id: demo
title: Demo
questions:
  - id: one
    topic: gpu
    question: Why GPUs?
    outline: Throughput.
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "argv", [["packs"], ["packs", "validate"], ["packs", "import"], ["packs", "list"]]
)
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    assert "usage: quizbot packs" in capsys.readouterr().out


def test_validate_accepts_good_packs_and_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "demo.yaml").write_text(GOOD, encoding="utf-8")
    code, out, _ = _run(capsys, "packs", "validate", tmp_path)
    assert (code, out) == (0, "ok: 1 pack(s), 1 question(s)\n")


def test_validate_prints_each_problem_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(GOOD, encoding="utf-8")
    bad = tmp_path / "bad.yml"
    bad.write_text(GOOD.replace("id: demo", "id: bad").replace("Throughput.", "''"), "utf-8")
    code, out, err = _run(capsys, "packs", "validate", good, bad)
    assert code == 1
    assert out == f"{bad}:7: questions[0].outline: must not be empty\n"
    assert "1 problem(s) in 1 file(s)" in err


def test_import_writes_a_valid_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "ai.yaml"
    code, out, err = _run(capsys, "packs", "import", SEED, "--out", out_path)
    assert (code, err) == (0, "")
    pack = load_pack(out_path)
    assert pack.id == "seed-ai-infra"  # from the file name
    assert {q.topic for q in pack.questions} == {"seed-ai-infra"}
    assert len({q.id for q in pack.questions}) == 10
    assert pack.questions[0].id == "time-memory-complexity-vanilla"
    assert f"wrote {out_path}" in out
    code, _, _ = _run(capsys, "packs", "validate", out_path)
    assert code == 0


def test_import_takes_id_and_topic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "p.yaml"
    argv = ("packs", "import", SEED, "--out", out_path, "--id", "infra", "--topic", "gpu")
    assert _run(capsys, *argv)[0] == 0
    pack = load_pack(out_path)
    assert (pack.id, pack.topics()) == ("infra", ["gpu"])


def test_import_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "p.yaml"
    out_path.write_text("keep me", encoding="utf-8")
    code, out, err = _run(capsys, "packs", "import", SEED, "--out", out_path)
    assert (code, out) == (1, "")
    assert "already exists; pass --force" in err
    assert out_path.read_text(encoding="utf-8") == "keep me"
    assert _run(capsys, "packs", "import", SEED, "--out", out_path, "--force")[0] == 0
    assert load_pack(out_path).id == "seed-ai-infra"


def test_import_reports_a_malformed_document_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = tmp_path / "broken.txt"
    document.write_text("Title\n\nAs asked\nQ?\n\nAs asked\n", encoding="utf-8")
    out_path = tmp_path / "p.yaml"
    code, out, err = _run(capsys, "packs", "import", document, "--out", out_path)
    assert (code, out) == (1, "")
    assert f"{document}:6: expected 'Sample answer outline' after the question text" in err
    assert list(tmp_path.iterdir()) == [document]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--id", "Bad Id"], "--id 'Bad Id': use lowercase letters and digits"),
        (["--topic", "GPU"], "--topic 'GPU': use lowercase letters and digits"),
    ],
)
def test_import_refuses_bad_id_or_topic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out_path = tmp_path / "p.yaml"
    code, _, err = _run(capsys, "packs", "import", SEED, "--out", out_path, *extra)
    assert code == 1 and message in err
    assert not out_path.exists()


def test_import_of_a_missing_document_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "packs", "import", tmp_path / "nope.txt", "--out", tmp_path / "p")
    assert code == 1 and "cannot read" in err


def test_list_shows_bundled_and_extra_packs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "demo.yaml").write_text(GOOD, encoding="utf-8")
    code, out, _ = _run(capsys, "packs", "list", "--dir", tmp_path)
    assert code == 0
    bundled = load_pack(bundled_packs_dir() / "ai-infra.yaml")
    assert f"ai-infra  v{bundled.version}  {len(bundled.questions)} question(s)" in out
    tensor_cores = sum(q.topic == "tensor-cores" for q in bundled.questions)
    assert f"  tensor-cores: {tensor_cores}\n" in out
    assert "demo  v1  1 question(s)  Demo\n  gpu: 1\n" in out


def test_list_reports_a_bad_extra_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ai.yaml").write_text(GOOD.replace("id: demo", "id: ai-infra"), "utf-8")
    code, _, err = _run(capsys, "packs", "list", "--dir", tmp_path)
    assert code == 1 and "pack id 'ai-infra' is already used by" in err


def test_run_with_a_bad_extra_pack_names_the_problem_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    # keep the root logger as the other tests expect it (caplog)
    monkeypatch.setattr("adapters.cli.run.configure_logging", lambda *args, **kwargs: None)
    for name in ("PLATFORM", "PACKS_DIR", "DB_PATH", "DATABASE_URL"):
        monkeypatch.delenv(f"QUIZBOT_{name}", raising=False)
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "demo.yaml").write_text(GOOD.replace("    outline: Throughput.\n", ""), "utf-8")
    code, _, err = _run(capsys, "run", "--db", tmp_path / "q.db", "--packs-dir", packs)
    assert code == 1
    assert f"quizbot: {packs / 'demo.yaml'}:4: questions[0].outline: required field" in err
    assert "Traceback" not in err


def test_packs_help_names_every_action_in_plain_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["packs", "--help"])
    description = capsys.readouterr().out.split("positional arguments")[0]
    assert "``" not in description and "pack_exchange" not in description  # no source names
    with pytest.raises(SystemExit):
        main(["--help"])
    summary = capsys.readouterr().out
    assert "validate, import, list and export question packs" in summary
