"""A whole round through the engine: post, thread, answers, follow-ups, reveal, votes."""

from __future__ import annotations

import pytest

from bot.kernel.events import Reaction
from bot.kernel.models import FollowUpPolicy
from bot.kernel.refs import MessageRef
from bot.kernel.render import CardKind
from tests.fakes import FakePlatform
from tests.harness import QuizHarness


async def test_now_posts_question_opens_thread_and_adds_hint(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    response = await quiz.command("now")

    assert "question #1" in response.card.plain_text().lower()
    [question] = platform.in_channel()
    assert question.card.title == "Question #1"
    assert question.card.body.startswith("Question ")
    assert question.key.endswith(":question")
    round_ = await quiz.round()
    assert round_.question_message == question.id
    assert platform.threads[await quiz.thread()] == question.id
    assert platform.reactions == [(question.id, "💡")]
    assert await quiz.thread_titles() == []  # follow-ups wait for the first answer


async def test_follow_ups_after_first_answer_then_outline_once(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    assert await quiz.thread_titles() == ["Follow-up questions"]
    await quiz.answer("bob", "another answer")
    for member in ("alice", "bob", "carol", "alice"):
        await quiz.react(member, "💡")
    assert await quiz.thread_titles() == ["Follow-up questions", "Sample answer outline"]
    [outline] = [m for m in await quiz.thread_messages() if m.card.title.startswith("Sample")]
    assert outline.card.body.startswith("Outline of ")


@pytest.mark.parametrize(
    ("policy", "before_answer", "after_answer", "after_reveal"),
    [
        (FollowUpPolicy.IMMEDIATELY, 1, 1, 1),
        (FollowUpPolicy.AFTER_FIRST_ANSWER, 0, 1, 1),
        (FollowUpPolicy.WITH_REVEAL, 0, 0, 1),
    ],
)
async def test_follow_up_timing_under_each_policy(
    quiz: QuizHarness,
    platform: FakePlatform,
    policy: FollowUpPolicy,
    before_answer: int,
    after_answer: int,
    after_reveal: int,
) -> None:
    await quiz.command(f"config followups {policy.value}")
    await quiz.command("now gpu")

    def follow_ups() -> int:
        return sum(1 for m in platform.messages if m.card.title == "Follow-up questions")

    assert follow_ups() == before_answer
    await quiz.answer("alice", "answer")
    assert follow_ups() == after_answer
    await quiz.react("bob", "💡")
    assert follow_ups() == after_reveal
    titles = await quiz.thread_titles()
    assert titles[-1] == "Sample answer outline"  # follow-ups never come after the outline


async def test_no_follow_ups_message_when_the_question_has_none(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    for _ in range(2):  # the rotation asks both networking questions before repeating one
        await quiz.command("now networking")
        if "net-2" in platform.in_channel()[-1].card.body:
            break
    assert "net-2" in platform.in_channel()[-1].card.body
    await quiz.answer("alice", "answer")
    await quiz.react("alice", "💡")
    assert await quiz.thread_titles() == ["Sample answer outline"]


async def test_reveal_once_under_many_reactions_duplicates_button_and_command(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    await quiz.react("alice", "💡", event_id="same")
    await quiz.react("alice", "💡", event_id="same")
    await quiz.react("bob", "💡\ufe0f")
    response = await quiz.press_reveal("carol")
    assert response is not None and "already" in response.card.body + response.card.title
    again = await quiz.command("reveal")
    assert "already revealed" in again.card.title
    outlines = [m for m in platform.messages if m.card.title == "Sample answer outline"]
    assert len(outlines) == 1


async def test_reveal_button_and_reveal_command(quiz: QuizHarness, platform: FakePlatform) -> None:
    await quiz.command("now")
    response = await quiz.press_reveal("alice")
    assert response is not None and "Revealing" in response.card.title
    assert "Sample answer outline" in await quiz.thread_titles()
    await quiz.command("now")
    await quiz.command("reveal")
    assert (await quiz.round()).revealed_at is not None
    assert sum(m.card.title == "Sample answer outline" for m in platform.messages) == 2


async def test_bot_reactions_and_other_emoji_do_not_reveal(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    assert round_.question_message is not None
    await quiz.service.handle(
        Reaction(
            "bot-1",
            quiz.channel,
            MessageRef(quiz.channel, round_.question_message),
            quiz.member("quizbot"),
            "💡",
            is_bot=True,
        )
    )
    await quiz.react("alice", "🎉")
    await quiz.service.settle()
    assert (await quiz.round()).revealed_at is None
    assert "Sample answer outline" not in await quiz.thread_titles()


async def test_minimum_distinct_reactors(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-reactors 2")
    await quiz.command("now")
    await quiz.react("alice", "💡")
    await quiz.react("alice", "💡")
    assert (await quiz.round()).revealed_at is None
    await quiz.react("bob", "💡")
    assert (await quiz.round()).revealed_at is not None


async def test_custom_reveal_emoji(quiz: QuizHarness, platform: FakePlatform) -> None:
    await quiz.command("config reveal-emoji 🔍")
    await quiz.command("now")
    question = platform.in_channel()[-1]
    assert (question.id, "🔍") in platform.reactions
    await quiz.react("alice", "💡")
    assert (await quiz.round()).revealed_at is None
    await quiz.react("alice", "🔍")
    assert (await quiz.round()).revealed_at is not None


async def test_answers_score_once_per_member_and_edits_keep_text(quiz: QuizHarness) -> None:
    await quiz.command("now")
    first = await quiz.answer("alice", "first")
    await quiz.answer("alice", "second thought")
    await quiz.answer("alice", "first", event_id="dup", message_id=first)  # a replayed event
    await quiz.edit("alice", first, "first, edited")
    await quiz.react("bob", "💡")
    await quiz.answer("bob", "after the reveal")
    round_ = await quiz.round()
    answers = await quiz.service.store.answers.round_answers(round_.id)
    assert [(a.member_name, a.text, a.points, a.scoring) for a in answers] == [
        ("Alice", "first, edited", 15, True),
        ("Alice", "second thought", 0, False),
        ("Bob", "after the reveal", 10, True),
    ]


async def test_replies_outside_a_round_thread_or_by_bots_are_not_answers(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    first_round = await quiz.round()
    await quiz.command("now")
    # a late reply in the previous (closed) round's thread
    assert first_round.thread is not None
    from bot.kernel.events import Reply
    from bot.kernel.refs import ThreadRef

    late = Reply(
        "late",
        quiz.channel,
        ThreadRef(quiz.channel, first_round.thread),
        MessageRef(quiz.channel, "late-msg"),
        quiz.member("alice"),
        "late",
    )
    await quiz.service.handle(late)
    await quiz.service.handle(
        Reply(
            "bot",
            quiz.channel,
            ThreadRef(quiz.channel, await quiz.thread()),
            MessageRef(quiz.channel, "bot-msg"),
            quiz.member("quizbot"),
            "bot says",
            is_bot=True,
        )
    )
    assert await quiz.service.store.answers.round_answers(first_round.id) == []
    assert await quiz.service.store.answers.round_answers((await quiz.round()).id) == []


async def test_votes_count_once_per_voter_never_for_oneself_and_are_capped(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    answer = await quiz.answer("alice", "answer")
    await quiz.react("alice", "👍", message_id=answer)  # self-vote: ignored
    await quiz.react("bob", "👍", message_id=answer)
    await quiz.react("bob", "👍", message_id=answer)  # second vote by bob: ignored
    [record] = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert (record.votes, record.points) == (1, 16)
    for voter in ("c1", "c2", "c3", "c4", "c5", "c6"):
        await quiz.react(voter, "👍", message_id=answer)
    [record] = await quiz.service.store.answers.round_answers((await quiz.round()).id)
    assert record.votes == 7
    assert record.points == 15 + 5  # at most 5 votes count


async def test_skip_closes_the_round(quiz: QuizHarness) -> None:
    await quiz.command("now")
    response = await quiz.command("skip")
    assert response.public and "closed" in response.card.title
    assert (await quiz.round()).state == "closed"
    again = await quiz.command("skip")
    assert "No round is open" in again.card.title


async def test_log_lines_carry_platform_channel_and_round(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO", logger="bot"):
        await quiz.command("now")
    [recorded] = [r for r in caplog.records if r.getMessage() == "round #1 recorded"]
    assert (recorded.platform, recorded.channel, recorded.round) == ("fake", "practice", 1)  # type: ignore[attr-defined]


async def test_reveal_after_skip_says_no_round_is_open_and_posts_no_outline(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    await quiz.command("now")
    await quiz.command("skip")

    response = await quiz.command("reveal")

    assert response.card.kind is CardKind.ERROR
    assert "no open round to reveal" in response.card.plain_text()
    await quiz.react("alice", "💡")
    pressed = await quiz.press_reveal("bob")
    assert pressed is not None and pressed.card.kind is CardKind.ERROR
    assert (await quiz.round()).revealed_at is None
    assert not any(m.card.title == "Sample answer outline" for m in platform.messages)
