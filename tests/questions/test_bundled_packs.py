"""Every shipped pack validates; the ai-infra pack starts with the seed bank, verbatim."""

from __future__ import annotations

from pathlib import Path

import pytest

from questions.loader import bundled_packs_dir, load_pack
from questions.seed_import import parse_seed

BUNDLED = sorted(bundled_packs_dir().glob("*.y*ml"))
SEED = Path(__file__).resolve().parents[1] / "data" / "seed_ai_infra.txt"
SEED_TOPICS = {
    "attention",
    "memory",
    "gpu-architecture",
    "numa",
    "normalization",
    "position-encoding",
    "pytorch",
    "tensor-cores",
    "fp8",
    "rdma",
}


def test_packs_are_bundled() -> None:
    assert [p.name for p in BUNDLED if p.name == "ai-infra.yaml"] == ["ai-infra.yaml"]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_pack_is_valid(path: Path) -> None:
    pack = load_pack(path)
    assert pack.id == path.stem
    assert len(pack.questions) >= 1


def test_ai_infra_holds_the_seed_questions_verbatim() -> None:
    seed = parse_seed(SEED.read_text(encoding="utf-8"))
    pack = load_pack(bundled_packs_dir() / "ai-infra.yaml")
    assert (pack.id, pack.title) == ("ai-infra", seed.title)
    assert len(seed.questions) == 10
    for bundled, original in zip(pack.questions[:10], seed.questions, strict=True):
        assert bundled.question == original.question
        assert bundled.outline == original.outline
        assert bundled.follow_up_asks == original.follow_ups
    assert {q.topic for q in pack.questions[:10]} == SEED_TOPICS
    assert pack.questions[0].id == "attention-complexity"


def test_ai_infra_is_written_with_block_scalars() -> None:
    path = bundled_packs_dir() / "ai-infra.yaml"
    text, count = path.read_text(encoding="utf-8"), len(load_pack(path).questions)
    assert text.count("question: |") == count
    assert text.count("outline: |") == count
