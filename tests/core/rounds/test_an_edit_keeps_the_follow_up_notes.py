"""An edit of a question through the form keeps its follow-ups' notes and its corrections."""

from __future__ import annotations

import pytest

from bot.bank.catalog import workspace_of
from bot.bank.moderation_cards import EDIT_ACTION
from questions.catalog import Catalog
from questions.pack import Pack
from tests.core.bank.test_suggestions import press, submit
from tests.harness import QuizHarness

OUTLINE = "L2 is hundreds of GB/s."
FACT = "A100 L2 bandwidth is several TB/s, above HBM's ~2 TB/s."
SOURCE = "NVIDIA A100 Tensor Core GPU Architecture whitepaper"
ASK_1 = "How big is shared memory per block?"
ASK_2 = "Why does occupancy matter?"
NOTES_1 = "Up to 163 KB per block on A100, opted in.\nMore per block means fewer blocks per SM."
NOTES_2 = "Resident warps hide latency.\nLow occupancy is fine with enough ILP."
PACK = Pack.model_validate(
    {
        "id": "noted",
        "title": "Noted pack",
        "questions": [
            {
                "id": "a100-hierarchy",
                "topic": "gpu",
                "question": "Describe the A100 memory hierarchy.",
                "outline": OUTLINE,
                "follow_ups": [
                    {"ask": ASK_1, "notes": NOTES_1},
                    {"ask": ASK_2, "notes": NOTES_2},
                    "Anything else?",
                ],
                "key_points": ["registers", "shared memory", "L2 and HBM"],
                "corrections": [{"fact": FACT, "source": SOURCE}],
            }
        ],
    }
)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog([PACK])


async def test_an_edit_keeps_the_notes_of_the_follow_ups_it_leaves_as_they_were(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.command("flag the outline understates L2", by="bob")
    opened = await press(quiz, EDIT_ACTION, "f1")
    assert opened.form is not None
    values = {f.name: f.value for f in opened.form.fields}
    assert values["follow_ups"] == f"{ASK_1}\n{ASK_2}\nAnything else?"
    reworded = f"{ASK_1}\nWhy does occupancy matter on A100?\nAnything else?"
    changed = {**values, "outline": "L2 is several TB/s.", "follow_ups": reworded}
    await submit(quiz, "edit_question", changed, by="admin", target=opened.form.target)
    space = workspace_of(quiz.channel)
    edited = quiz.service.engine.questions.question(space, round_.question_id)
    assert edited is not None and edited.outline == "L2 is several TB/s."
    assert [(f.ask, f.notes) for f in edited.follow_ups] == [
        (ASK_1, NOTES_1),  # kept word for word: its notes stay
        ("Why does occupancy matter on A100?", None),  # reworded: its old notes may not fit
        ("Anything else?", None),
    ]
    assert edited.corrections == PACK.questions[0].corrections
    [override] = await quiz.service.store.bank.overrides()
    assert override.question == edited  # stored with its notes
