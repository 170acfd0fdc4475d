"""The checklist and reviews on Discord: the outline's Tick key points button opens a modal
with a multi-select of the key points (a label holding a select), and the options chosen
come back as the ticks that grade the answer."""

from __future__ import annotations

from typing import Any

from bot.kernel.grades import Grade
from tests.discord.conftest import (
    _interaction,
    button_payload,
    eventually,
    feed,
    message_payload,
    reaction_payload,
)
from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    BOB,
    LEAD,
    Quiz,
    bot_posts,
    quiz,
)


def select_submit(quiz: Quiz, user: int, custom_id: str, picked: dict[str, list[str]]) -> Any:  # noqa: F811
    labels = [
        {"type": 18, "component": {"type": 3, "custom_id": name, "values": values}}
        for name, values in picked.items()
    ]
    return _interaction(
        quiz.fake, 5, user, {"custom_id": custom_id, "components": labels}, None, None
    )


async def test_ticks_in_a_multi_select_grade_the_answer(quiz: Quiz) -> None:  # noqa: F811
    fake = quiz.fake
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    round_ = await quiz.round()
    assert round_.thread is not None and round_.question_message is not None
    answer = fake.add_message(int(round_.thread), ANN, "my answer")
    await quiz.run("MESSAGE_CREATE", message_payload(fake, answer))
    reveal = reaction_payload(fake, fake.channel_id, int(round_.question_message), BOB, "💡")
    await quiz.run("MESSAGE_REACTION_ADD", reveal)
    await quiz.service.settle()
    question = quiz.service.engine.question_for(
        (await quiz.store.channels.list_channels())[0].ref, round_.question_id
    )
    assert question is not None and question.key_points
    with_buttons = [m for m in bot_posts(fake, int(round_.thread)) if m.get("components")]
    outline = with_buttons[-1]
    ids = [c["custom_id"] for row in outline["components"] for c in row["components"]]
    [checklist] = [i for i in ids if ":checklist:" in i]

    before = len(fake.modals())
    feed(quiz.connected(), "INTERACTION_CREATE", button_payload(fake, ANN, outline, checklist))
    await eventually(lambda: len(fake.modals()) > before)
    modal = fake.modals()[-1]
    [label] = modal["components"]
    assert label["type"] == 18 and label["component"]["type"] == 3
    assert label["component"]["max_values"] == len(question.key_points)

    every = [str(n) for n in range(1, len(question.key_points) + 1)]
    replies = len(fake.interaction_replies)
    await quiz.run(
        "INTERACTION_CREATE", select_submit(quiz, ANN, modal["custom_id"], {"covered": every})
    )
    await eventually(lambda: len(fake.interaction_replies) >= replies + 2)
    grades = await quiz.store.learning.round_grades(round_.id)
    assert list(grades.values()) == [Grade.NAILED]
