"""`quizbot packs overlaps`, through the real argument parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli.main import main

ISSUE_38 = Path(__file__).parents[1] / "questions" / "overlaps_issue_38.yaml"


def test_packs_overlaps_lists_the_overlaps_and_the_closest_pairs_and_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["packs", "overlaps", str(ISSUE_38), "--top", "1"]) == 1
    out = capsys.readouterr().out
    assert "17 questions checked in" in out
    assert "cuda-mps-concurrency (follow-up 2) and k8s-device-plugin-sharing mean nearly" in out
    assert "Closest 1 pairs by meaning" in out


def test_packs_overlaps_reports_an_invalid_pack_as_validate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: broken\ntitle: t\nquestions: []\n", encoding="utf-8")
    assert main(["packs", "overlaps", str(tmp_path)]) == 1
    assert "broken.yaml" in capsys.readouterr().err
