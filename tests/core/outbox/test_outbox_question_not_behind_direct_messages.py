"""A pass of the outbox sends a closed round's outline before the next question, but a
question due with many direct messages (notices, practice, reminders) does not wait until
every one of them is sent: the messages of one member's DM never hold a channel's round."""

from __future__ import annotations

from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from tests.harness import QuizHarness

DIRECT_MESSAGES = 40


async def test_a_question_due_with_many_direct_messages_goes_out_among_the_first(
    quiz: QuizHarness,
) -> None:
    engine = quiz.service.engine
    for n in range(DIRECT_MESSAGES):
        where = ChannelRef(quiz.platform.name, quiz.channel.workspace, f"D-m{n}", "DM")
        await engine.send_direct(where, Card(f"Note {n}"), f"test:note:{n}")
    await quiz.command("now", settle=False)
    await quiz.service.settle()

    sent = [m.card.title for m in quiz.platform.messages]
    question = next(i for i, title in enumerate(sent) if title.startswith("Question #"))
    assert sum(t.startswith("Note") for t in sent) == DIRECT_MESSAGES
    slots = quiz.service.config.send_concurrency
    assert question <= slots, f"the question was message {question + 1} of {len(sent)}"
