"""A console form refuses a line that names a field the form does not have, or names one
the wrong way (``followups:``, ``keypoints:``, ``Topic:``), by that name: it is never
added to the field above, where it would be stored as part of the outline."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.connector import ConsolePlatform
from questions.catalog import Catalog
from tests.conftest import START, sample_pack
from tests.console.script import run_script, script
from tests.fakes import FakeClock
from tests.harness import running_service

SCRIPT = [
    "/quiz schedule daily 09:00 UTC",
    ":as ann",
    "/quiz suggest",
    "topic: kv-cache",
    "question: How large is the KV cache per token?",
    "outline: 2 x layers x KV heads x head dim x bytes.",
    "Note: GQA divides it by the group size.",  # not a field's name: the outline goes on
    "followups: What does MQA change?",
    "keypoints: the formula",
    "Topic: gpu",
    "Key-Points: one",
    "follow_ups: What does MQA change?",
    "key_points: the per-token formula",
    "GQA divides it by the group size",
    "linear in the context length",
    ".",
]


async def test_a_mistyped_field_name_is_refused_by_name(tmp_path: Path) -> None:
    out = io.StringIO()
    platform = ConsolePlatform(out, script(SCRIPT), echo=True)
    async with running_service(
        tmp_path / "f.db", [platform], FakeClock(START), Catalog([sample_pack()])
    ) as service:
        await run_script(service, platform)
        suggestion = await service.store.bank.get_suggestion(1)
    transcript = out.getvalue()
    for typed, meant in (
        ("followups", "follow_ups"),
        ("keypoints", "key_points"),
        ("Topic", "topic"),
        ("Key-Points", "key_points"),
    ):
        assert (
            f"(`{typed}:` is not a field of this form; did you mean `{meant}:`? The line was"
            " not taken: type it again)"
        ) in transcript
    assert suggestion is not None
    question = suggestion.question
    assert question.topic == "kv-cache"
    assert question.outline == (
        "2 x layers x KV heads x head dim x bytes.\nNote: GQA divides it by the group size."
    )
    assert question.follow_up_asks == ("What does MQA change?",)
    assert len(question.key_points) == 3
