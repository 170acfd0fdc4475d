"""On Discord the admins-only subcommands are under ``/quiz-admin`` (one command holds only
25 subcommands): they run from there, Discord hides them from members, and the help a
Discord member reads names them that way."""

from __future__ import annotations

from tests.discord.test_a_round_on_discord import (  # noqa: F401 - the quiz fixture
    ANN,
    LEAD,
    Quiz,
    quiz,
)


async def test_help_names_the_admin_command_and_it_runs(quiz: Quiz) -> None:  # noqa: F811
    await quiz.command(ANN, "help")
    reply = quiz.fake.interaction_replies[-1]
    text = str(reply.get("data", reply)["embeds"])  # the list may take more than one embed
    assert "/quiz-admin now" in text and "/quiz-admin skip" in text
    assert "/quiz me" in text and "/quiz-admin me" not in text
    assert "/quiz round grade" in text and "/quiz grade" not in text  # as it is run there
    assert "/quiz channel config reveal-emoji" in text  # a setting: under /quiz, its group

    await quiz.command(LEAD, "now")  # sent as /quiz-admin now, as Discord would
    await quiz.service.settle()
    assert (await quiz.round()).number == 1
