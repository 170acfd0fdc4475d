"""On the console, the outline comes with its corrections and the follow-ups' notes."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from questions.loader import bundled_packs_dir, load_pack
from tests.console.script import run_script, script
from tests.core.rounds.test_an_edit_keeps_the_follow_up_notes import FACT, PACK, SOURCE
from tests.fakes import FakeClock
from tests.harness import running_service

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # a Monday
SCRIPT = ["/quiz now", ":as alice", "Registers, shared memory, L2, HBM.", ":react 💡"]


async def test_the_console_shows_corrections_and_follow_up_notes_under_the_outline(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "q.db", [platform], FakeClock(START), Catalog([PACK])
    ) as service:
        await run_script(service, platform)
    text = " ".join(line.strip() for line in out.getvalue().splitlines())  # lines wrap

    follow_ups, outline = text.index("quizbot: Follow-up questions"), text.index("quizbot: Sample")
    assert follow_ups < outline
    assert "163 KB" not in text[:outline]  # the notes are not shown before the reveal
    corrections = text.index(f"Corrections to the outline • {FACT} (Source: {SOURCE})")
    notes = text.index(
        "The follow-ups: what a good answer contains"
        " Follow-up 1: How big is shared memory per block?"
        " – Up to 163 KB per block on A100, opted in."
        " – More per block means fewer blocks per SM."
    )
    assert outline < corrections < text.index("Did you cover…") < notes


async def test_a_bundled_seed_question_shows_its_correction_and_notes(tmp_path: Path) -> None:
    bank = load_pack(bundled_packs_dir() / "ai-infra.yaml")
    [seed] = [q for q in bank.questions if q.id == "a100-memory-hierarchy"]
    pack = bank.model_copy(update={"questions": (seed,)})
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "q.db", [platform], FakeClock(START), Catalog([pack])
    ) as service:
        await run_script(service, platform)
    text = " ".join(line.strip() for line in out.getvalue().splitlines())
    outline = text.index("quizbot: Sample answer outline")
    assert text.index("hundreds of GB/s", outline) < text.index("5,120 bytes per clock", outline)
    assert "Up to 163 KB per thread block" in text[outline:]
    assert "Up to 163 KB per thread block" not in text[:outline]
