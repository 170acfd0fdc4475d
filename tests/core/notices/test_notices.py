"""Opt-in notices on both store backends: ``/quiz notify on`` gets a member one direct
message when the channel's question posts, with its link; ``/quiz config last-call``
sends those who have not answered one more before the outline is due; nobody who did
not ask is told; each message goes out once, however often its step runs."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

import pytest

from bot.channels.setting_rules import ping_group
from bot.kernel.errors import BadArgument
from bot.kernel.models import ActionKind
from bot.kernel.platform import Platform
from bot.kernel.render import Card, CardKind
from bot.notices.cards import last_call_card, question_notice_card
from tests.harness import QuizHarness


@pytest.fixture
async def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    await quiz_on_both.command("config grace 6")  # an admin sets the quiz up in the channel
    return quiz_on_both


def direct_to(quiz: QuizHarness, name: str) -> list[Card]:
    return [m.card for m in quiz.platform.messages if m.channel.channel_id == f"D-{name}"]


async def test_only_members_who_asked_are_told_with_a_link(quiz: QuizHarness) -> None:
    turned_on = await quiz.command("notify on", by="ann")
    assert turned_on.card.title == "Notices on"

    await quiz.command("now")
    round_ = await quiz.round()

    [notice] = direct_to(quiz, "ann")
    assert notice.title == f"Question #{round_.number} is up"
    assert f"https://chat.example/C1/{round_.question_message}" in notice.body
    assert direct_to(quiz, "bob") == []
    assert direct_to(quiz, "admin") == []


async def test_notify_off_stops_them_and_notify_alone_shows_the_setting(
    quiz: QuizHarness,
) -> None:
    await quiz.command("notify on", by="ann")
    assert (await quiz.command("notify", by="ann")).card.title == "Notices on"
    await quiz.command("notify off", by="ann")
    assert (await quiz.command("notify", by="ann")).card.title == "Notices off"

    await quiz.command("now")

    assert direct_to(quiz, "ann") == []


async def test_a_notice_step_run_again_sends_nothing_twice(quiz: QuizHarness) -> None:
    await quiz.command("notify on", by="ann")
    await quiz.command("now")
    round_ = await quiz.round()
    channel = await quiz.service.engine.channel(quiz.channel)
    assert channel is not None
    question = quiz.service.engine.question_for(quiz.channel, round_.question_id)
    assert question is not None

    # the step again, as after a crash between queuing the notices and completing it
    sender = quiz.service.notices.sender
    again = await sender.question_posted(quiz.platform, round_, channel, question, quiz.clock.now())
    await quiz.service.settle()

    assert again == 0
    assert len(direct_to(quiz, "ann")) == 1


async def test_the_last_call_reaches_who_has_not_answered_once(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 4h")
    changed = await quiz.command("config last-call 1h")
    assert "1h before the outline" in changed.card.body
    await quiz.command("notify on", by="ann")
    await quiz.command("notify on", by="bob")
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.answer("bob", "my answer")

    quiz.clock.advance(hours=2, minutes=59)
    await quiz.service.settle()
    assert [c.title for c in direct_to(quiz, "ann")] == [f"Question #{round_.number} is up"]

    quiz.clock.advance(minutes=2)
    await quiz.service.settle()
    ann = [c.title for c in direct_to(quiz, "ann")]
    assert ann == [f"Question #{round_.number} is up", f"Last call for question #{round_.number}"]
    assert "outline is posted in about 1h" in direct_to(quiz, "ann")[-1].body
    assert [c.title for c in direct_to(quiz, "bob")] == [f"Question #{round_.number} is up"]

    quiz.clock.advance(hours=2)
    await quiz.service.settle()
    assert len(direct_to(quiz, "ann")) == 2  # then the outline, and no second last call


async def test_no_last_call_after_the_outline_came(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 4h")
    await quiz.command("config last-call 1h")
    await quiz.command("notify on", by="ann")
    await quiz.command("now")
    round_ = await quiz.round()
    await quiz.react("carol", "💡", message_id=round_.question_message)

    quiz.clock.advance(hours=5)
    await quiz.service.settle()

    assert [c.title for c in direct_to(quiz, "ann")] == [f"Question #{round_.number} is up"]
    left = await quiz.service.store.outbox.due_actions(quiz.clock.now())
    assert not [a for a in left if a.kind is ActionKind.LAST_CALL]


async def daily_question_at_nine_with_a_last_call(quiz: QuizHarness) -> None:
    """A daily 09:00 question, no reveal-after time, a last call 2h before the next one,
    ann's notices on, and today's question posted at 09:00."""
    quiz.clock.set(quiz.clock.now().replace(hour=9, minute=0, second=0, microsecond=0))
    await quiz.command("schedule daily 09:00 UTC")
    await quiz.command("config last-call 2h")
    await quiz.command("notify on", by="ann")
    await quiz.command("now")


async def test_without_reveal_after_the_last_call_comes_before_the_next_question(
    quiz: QuizHarness,
) -> None:
    await daily_question_at_nine_with_a_last_call(quiz)

    quiz.clock.advance(hours=21, minutes=30)  # 06:30 the next day
    await quiz.service.settle()
    assert len(direct_to(quiz, "ann")) == 1
    quiz.clock.advance(minutes=31)  # 07:01
    await quiz.service.settle()
    assert direct_to(quiz, "ann")[-1].title.startswith("Last call")
    assert "the next question is posted in about 2h" in direct_to(quiz, "ann")[-1].body


async def test_a_last_call_waits_when_the_next_questions_day_is_skipped(
    quiz: QuizHarness,
) -> None:
    await daily_question_at_nine_with_a_last_call(quiz)
    tomorrow = (quiz.clock.now() + timedelta(days=1)).date()
    skipped = await quiz.command(f"schedule skip {tomorrow.isoformat()}")
    assert skipped.card.kind is not CardKind.ERROR

    quiz.clock.advance(hours=22)  # 07:00 tomorrow: no question comes at 09:00
    await quiz.service.settle()
    assert [c.title for c in direct_to(quiz, "ann")] == [direct_to(quiz, "ann")[0].title]
    quiz.clock.advance(days=1, minutes=1)  # 07:01 the day after, 2h before its question
    await quiz.service.settle()
    assert direct_to(quiz, "ann")[-1].title.startswith("Last call")
    assert len(direct_to(quiz, "ann")) == 2


async def test_a_question_mentions_the_ping_group_only(quiz: QuizHarness) -> None:
    changed = await quiz.command("config ping @backend-team")
    assert changed.card.kind is not CardKind.ERROR
    await quiz.command("now")
    round_ = await quiz.round()
    question = next(m for m in quiz.platform.messages if m.key.endswith(":question"))
    assert question.card.ping == "backend-team"
    follow_ups_and_outline = [m for m in quiz.platform.messages if m.thread]
    assert all(m.card.ping == "" for m in follow_ups_and_outline)
    assert round_.number == 1

    await quiz.command("config ping off")
    await quiz.command("now")
    latest = [m for m in quiz.platform.messages if m.key.endswith(":question")][-1]
    assert latest.card.ping == ""


@pytest.mark.parametrize(
    ("typed", "group"),
    [
        ("730000000000000009", "730000000000000009"),
        ("S0123ABCD", "S0123ABCD"),
        ("@backend-team", "backend-team"),
        ("off", None),
    ],
)
def test_a_ping_is_read_from_a_bare_id_or_name(typed: str, group: str | None) -> None:
    assert ping_group(typed) == group


class BracketMentions:
    """A platform whose group mentions are written ``[[id]]``."""

    group_form = "a group in double brackets"

    def mentioned_group(self, typed: str) -> str | None:
        return typed[2:-2] if typed.startswith("[[") and typed.endswith("]]") else None


def test_a_ping_is_read_in_the_platforms_own_mention_syntax() -> None:
    platform = cast(Platform, BracketMentions())
    assert ping_group("[[G42]]", platform) == "G42"
    assert ping_group("G42", platform) == "G42"
    with pytest.raises(BadArgument, match="Give a group in double brackets, or off"):
        ping_group("<@&730000000000000009>", platform)


def test_a_mention_no_platform_reads_is_refused_with_the_bare_form() -> None:
    with pytest.raises(BadArgument, match=r"not a role or group\. Give a group's name or id"):
        ping_group("<@&730000000000000009>")


@pytest.mark.parametrize("typed", ["@here", "@everyone", "<!channel>", "<!here>", "everyone"])
def test_a_ping_of_everyone_is_refused(typed: str) -> None:
    with pytest.raises(BadArgument, match="everyone in the channel"):
        ping_group(typed)
    with pytest.raises(BadArgument, match="everyone in the channel"):
        ping_group(typed, cast(Platform, BracketMentions()))


async def test_a_member_away_gets_no_notice_and_no_last_call(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 4h")
    await quiz.command("config last-call 1h")
    await quiz.command("notify on", by="ann")
    await quiz.command("notify on", by="bob")
    away = await quiz.command("away until 2026-12-10", by="ann")
    assert away.card.kind is not CardKind.ERROR, away.card.body

    await quiz.command("now")
    quiz.clock.advance(hours=3, minutes=1)
    await quiz.service.settle()

    assert direct_to(quiz, "ann") == []
    assert [c.title.split()[0] for c in direct_to(quiz, "bob")] == ["Question", "Last"]

    await quiz.command("away off", by="ann")
    await quiz.command("now")
    assert [c.title for c in direct_to(quiz, "ann")][-1].endswith("is up")


async def test_without_a_link_the_notices_end_their_sentence(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-after 2h")
    await quiz.command("config last-call 1h")
    await quiz.command("now")
    round_ = await quiz.round()
    channel = await quiz.service.engine.channel(quiz.channel)
    question = quiz.service.engine.question_for(quiz.channel, round_.question_id)
    assert channel is not None and question is not None
    notice = question_notice_card(channel, round_, question, None)
    last_call = last_call_card(channel, round_, None)
    assert notice.body.endswith("posted in #practice.")
    assert last_call.body.endswith("Answer in #practice.")
    linked = last_call_card(channel, round_, "https://chat.example/C1/1")
    assert linked.body.endswith("Answer in #practice: https://chat.example/C1/1")


@pytest.mark.parametrize(
    ("topic", "begins"),
    [
        ("accelerators", "An accelerators question"),
        ("inference-serving", "An inference-serving question"),
        ("observability", "An observability question"),
        ("gpu", "A gpu question"),
        ("kv-cache", "A kv-cache question"),
    ],
)
async def test_a_notice_names_the_topic_with_the_right_article(
    quiz: QuizHarness, topic: str, begins: str
) -> None:
    await quiz.command("now")
    round_ = await quiz.round()
    channel = await quiz.service.engine.channel(quiz.channel)
    question = quiz.service.engine.question_for(quiz.channel, round_.question_id)
    assert channel is not None and question is not None
    notice = question_notice_card(
        channel, round_, question.model_copy(update={"topic": topic}), None
    )
    assert notice.body.startswith(f"{begins} was just posted in #practice")
