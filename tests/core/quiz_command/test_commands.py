"""The /quiz grammar and what members and admins get back."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.channels.setting_requests import (
    SetFollowUps,
    SetGrace,
    SetPaused,
    SetRevealEmoji,
    SetSchedule,
    SetTopics,
)
from bot.features import find_subcommand, parse_command
from bot.kernel.errors import unknown_topic, unknown_topics
from bot.kernel.events import Reply
from bot.kernel.models import FollowUpPolicy
from bot.kernel.refs import MessageRef, ThreadRef
from bot.kernel.scoring import Period
from bot.kernel.topic_choice import EVERY_TOPIC
from bot.quiz_command.typed import CommandError, Help
from bot.rounds.commands import PostNow, ShowLeaderboard, ShowStats
from tests.fakes import FakePlatform
from tests.harness import QuizHarness


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Help()),
        ("help", Help()),
        ("leaderboard", ShowLeaderboard(Period.WEEK, False)),
        ("leaderboard month", ShowLeaderboard(Period.MONTH, False)),
        ("leaderboard all public", ShowLeaderboard(Period.ALL, True)),
        ("LEADERBOARD Public Week", ShowLeaderboard(Period.WEEK, True)),
        ("stats public", ShowStats(public=True)),
        ("now", PostNow(None)),
        ("now GPU", PostNow("gpu")),
        ("topics enable gpu networking gpu", SetTopics(True, ("gpu", "networking"))),
        ("topics disable memory", SetTopics(False, ("memory",))),
        ("schedule weekdays 09:30", SetSchedule("weekdays 09:30", None)),
        (
            "schedule mon,wed,fri 09:00 Europe/Berlin",
            SetSchedule("mon,wed,fri 09:00", "Europe/Berlin"),
        ),
        ("schedule 0 9 * * 1-5 UTC", SetSchedule("0 9 * * 1-5", "UTC")),
        ("schedule 0 9 */2 * *", SetSchedule("0 9 */2 * *", None)),
        # zones of the tz database without a slash
        ("schedule daily 10:00 EST", SetSchedule("daily 10:00", "EST")),
        ("schedule 0 9 * * 1-5 Japan", SetSchedule("0 9 * * 1-5", "Japan")),
        (
            "schedule 30 8 * * mon-fri America/New_York",
            SetSchedule("30 8 * * mon-fri", "America/New_York"),
        ),
        ("pause", SetPaused(True)),
        ("resume", SetPaused(False)),
        ("config reveal-emoji 🔍", SetRevealEmoji("🔍")),
        ("config followups with_reveal", SetFollowUps(FollowUpPolicy.WITH_REVEAL)),
        ("config grace 2.5", SetGrace(2.5)),
    ],
)
def test_grammar_accepts(text: str, expected: object) -> None:
    name, *args = text.split() or [""]
    assert parse_command(name, args) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("leaderboard year", "Unexpected 'year'"),
        ("leaderboard week week", "Unexpected 'week'"),
        ("stats everyone", "Unexpected 'everyone'"),
        ("me now", "takes no arguments"),
        ("topics add gpu", "Expected 'enable' or 'disable'"),
        ("topics enable", "at least one topic"),
        ("now gpu memory", "at most one topic"),
        ("schedule Europe/Berlin", "missing before the timezone"),
        ("config grace lots", "Grace must be a number"),
        ("config grace 100", "Grace must be a number"),
        ("config followups sometimes", "Unknown follow-up policy"),
        ("config reveal-emoji bulb", "not an emoji"),
        ("config colour blue", "Unknown setting"),
        ("config grace 1 2", "Give one setting and its value"),
        ("config reveal-reactors ²", "Reveal reactors must be from 1 to"),
        ("config reveal-reactors 0", "Reveal reactors must be from 1 to"),
    ],
)
def test_grammar_rejects_with_form_and_example(text: str, fragment: str) -> None:
    name, *args = text.split()
    with pytest.raises(CommandError) as caught:
        parse_command(name, args)
    message = str(caught.value)
    assert fragment in message
    assert "Use: /quiz" in message and "Example: /quiz" in message


def test_unknown_subcommand_gives_help() -> None:
    assert parse_command("frobnicate", []) == Help(unknown="frobnicate")


async def test_a_mistyped_subcommand_gets_did_you_mean_and_a_short_list(
    quiz: QuizHarness,
) -> None:
    response = await quiz.command("leaderbord", by="alice")
    text = response.card.plain_text()
    assert "`/quiz leaderbord` is not a command." in text
    assert "Did you mean `/quiz leaderboard [week|month|all] [public]`" in text
    assert "Commands: help, leaderboard, season, me, grade," in text
    assert "`/quiz help` describes each" in text
    assert len(text.splitlines()) <= 6  # not the whole help (over 40 lines)
    assert "top members of this channel" in text  # what the suggestion does
    unlike = (await quiz.command("zzzz", by="alice")).card.plain_text()
    assert "`/quiz zzzz` is not a command." in unlike and "Did you mean" not in unlike
    assert len(unlike.splitlines()) <= 4
    start = (await quiz.command("lead", by="alice")).card.plain_text()
    assert "Did you mean `/quiz leaderboard" in start  # the start of a name


async def test_help_lists_every_command(quiz: QuizHarness) -> None:
    response = await quiz.command("help", by="alice")
    text = response.card.plain_text()
    for name in (
        "leaderboard",
        "me",
        "stats",
        "topics",
        "schedule",
        "packs",
        "now",
        "reveal",
        "skip",
        "pause",
        "resume",
        "config",
    ):
        assert f"/quiz {name}" in text
    assert not response.public


async def test_member_is_refused_admin_commands_and_nothing_changes(
    quiz: QuizHarness, platform: FakePlatform
) -> None:
    for text in (
        "now",
        "reveal",
        "skip",
        "pause",
        "topics enable gpu",
        "schedule daily 10:00",
        "config grace 1",
    ):
        response = await quiz.command(text, by="alice")
        assert "needs a quiz admin" in response.card.body, text
        assert not response.public
    assert platform.messages == []
    assert await quiz.service.store.channels.list_channels() == []


async def test_a_member_with_bad_admin_arguments_is_told_it_needs_an_admin(
    quiz: QuizHarness,
) -> None:
    for text in ("config grace lots", "schedule weekdayz 9", "topics add gpu", "now a b"):
        response = await quiz.command(text, by="alice")
        assert "needs a quiz admin" in response.card.body, text
    shown = await quiz.command("topics", by="alice")  # without arguments: for everyone
    assert "Topics" in shown.card.title


async def test_member_commands_before_any_quiz_explain_how_to_start(quiz: QuizHarness) -> None:
    response = await quiz.command("leaderboard", by="alice")
    assert "no quiz in this channel yet" in response.card.body


async def test_bad_argument_tells_the_member_the_right_form(quiz: QuizHarness) -> None:
    response = await quiz.command("leaderboard forever", by="alice")
    assert "Use: /quiz leaderboard [week|month|all] [public]" in response.card.body
    assert "Example: /quiz leaderboard week" in response.card.body


async def test_first_admin_command_makes_a_quiz_channel(quiz: QuizHarness) -> None:
    await quiz.command("pause")
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.ref.channel_id == quiz.channel.channel_id
    assert channel.paused


async def test_topics_enable_disable_and_listing(quiz: QuizHarness, platform: FakePlatform) -> None:
    response = await quiz.command("topics disable gpu networking")
    assert response.public and "Enabled topics: memory" in response.card.body
    listing = (await quiz.command("topics", by="alice")).card.body
    assert "✅ memory" in listing and "▫️ gpu" in listing
    for _ in range(3):
        await quiz.command("now")
    assert all("mem-1" in m.card.body for m in platform.in_channel())
    refused = await quiz.command("topics disable memory")
    assert "At least one topic must stay enabled" in refused.card.body
    unknown = await quiz.command("topics enable cooking")
    assert "Unknown topic(s): 'cooking'" in unknown.card.body
    await quiz.command("topics enable gpu networking")
    [channel] = await quiz.service.store.channels.list_channels()
    assert channel.topics == EVERY_TOPIC  # every topic enabled again


async def test_topics_enable_unknown_names_them_suggests_and_shows_the_form(
    quiz: QuizHarness,
) -> None:
    reply = await quiz.command("topics enable netwrking cooking gpu")

    body = reply.card.body
    assert body.startswith("Unknown topic(s): 'netwrking' (did you mean 'networking'?), 'cooking'.")
    assert "Use: /quiz topics enable TOPIC [TOPIC...]" in body
    assert "Topics: gpu, memory, networking." in body
    disabled = await quiz.command("topics disable gpus")
    assert "'gpus' (did you mean 'gpu'?)" in disabled.card.body
    assert "Use: /quiz topics disable TOPIC [TOPIC...]" in disabled.card.body


def test_an_unknown_topics_message_keeps_a_long_topic_list_short() -> None:
    known = [f"topic-{n:02d}" for n in range(40)]
    message = str(unknown_topics(["topic-1"], known, "enable"))
    assert "and 32 more (`/quiz topics` lists them)" in message
    assert message.count("topic-") < 15


async def test_now_with_unknown_topic(quiz: QuizHarness, platform: FakePlatform) -> None:
    response = await quiz.command("now cooking")
    assert "Unknown topic 'cooking'" in response.card.body
    assert platform.messages == []


async def test_schedule_set_show_and_bad_spec(quiz: QuizHarness) -> None:
    changed = await quiz.command("schedule weekdays 09:30 Europe/Berlin")
    assert changed.public
    assert "weekdays 09:30 (Europe/Berlin)" in changed.card.body
    shown = (await quiz.command("schedule", by="alice")).card.plain_text()
    assert "Europe/Berlin" in shown
    # Monday 2026-11-30 08:00 UTC is 09:00 in Berlin: the next post is today at 09:30.
    assert "Mon 30 Nov 2026 09:30 CET" in shown
    bad = await quiz.command("schedule weekdayz 9")
    assert "Example: /quiz schedule" in bad.card.body
    bad_zone = await quiz.command("schedule daily 10:00 Mars/Olympus")
    assert "Mars/Olympus" in bad_zone.card.body
    [channel] = await quiz.service.store.channels.list_channels()
    assert (channel.schedule, channel.timezone) == ("weekdays 09:30", "Europe/Berlin")


async def test_pause_and_resume(quiz: QuizHarness) -> None:
    assert "Paused" in (await quiz.command("pause")).card.body
    assert "already paused" in (await quiz.command("pause")).card.title
    shown = (await quiz.command("schedule")).card.plain_text()
    assert "paused" in shown
    assert "Resumed" in (await quiz.command("resume")).card.body


async def test_packs_and_stats(quiz: QuizHarness) -> None:
    packs = await quiz.command("packs", by="alice")
    assert "sample — Sample pack (5 questions" in packs.card.body
    await quiz.command("now")
    await quiz.answer("alice", "answer")
    stats = await quiz.command("stats public", by="alice")
    assert stats.public
    text = stats.card.plain_text()
    assert (
        "Rounds: 1" in text
        and "Answers (1 per member per round): 1" in text
        and "Status: active" in text
    )


async def test_stats_count_answers_as_the_leaderboard_does(quiz: QuizHarness) -> None:
    await quiz.command("now")
    await quiz.answer("alice", "my answer")
    await quiz.answer("alice", "and one more thought")  # a second reply: no second answer
    await quiz.answer("bob", "bob's answer")
    thread = await quiz.thread()
    await quiz.service.handle(
        Reply(
            quiz.event_id(),
            quiz.channel,
            ThreadRef(quiz.channel, thread),
            MessageRef(quiz.channel, "bot-msg"),
            quiz.member("quizbot"),
            "bot says",
            is_bot=True,
        )
    )
    await quiz.command("skip")
    await quiz.answer("carol", "too late")  # after the close

    stats = await quiz.command("stats", by="alice")
    board = await quiz.command("leaderboard all", by="alice")

    [answers] = [f for f in stats.card.fields if f.name.startswith("Answers")]
    assert answers.value == "2"
    assert "per member" in answers.name and "round" in answers.name
    assert "(1 answer)" in board.card.body and board.card.body.count("(1 answer)") == 2


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("schedule daily 10:00 America/Argentina", "unknown timezone 'America/Argentina'"),
        ("schedule daily 10:00 america/indiana", "unknown timezone 'america/indiana'"),
        ("schedule daily 10:00 Berlin", "unknown timezone 'Berlin'"),
        ("schedule daily 10:00 Europe/" + "x" * 256, "unknown timezone 'Europe/xxxx"),
        ("config reveal-reactors " + "9" * 5000, "Reveal reactors must be from 1 to"),
        ("schedule 0 9 */" + "9" * 5000 + " * *", "cron"),
        ("schedule 0 " + "9" * 5000 + " * * *", "cron"),
        ("schedule ² 9 * * *", "cron"),
    ],
)
async def test_inputs_that_used_to_crash_get_the_form_and_example(
    quiz: QuizHarness, caplog: pytest.LogCaptureFixture, text: str, fragment: str
) -> None:
    with caplog.at_level(logging.ERROR):
        response = await quiz.command(text)
    assert fragment in response.card.body
    assert "Example: /quiz" in response.card.body
    assert len(response.card.body) < 1000  # a huge argument is not echoed back whole
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


COMMAND_REFERENCE = (Path(__file__).parents[3] / "docs" / "commands.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "form"),
    [
        ("remind", "/quiz remind [off|HH:MM [TIMEZONE]]"),  # off alone, or a time and a zone
        ("recap", "/quiz recap [off|DAY [HH:MM]]"),
        ("goal", "/quiz goal [off|YYYY-MM-DD]"),
        ("practice", "/quiz practice [timed MINUTES] [stop|TOPIC] [easy|medium|hard|any]"),
        ("flag", "/quiz flag REASON..."),
        ("now", "/quiz now [TOPIC]"),
    ],
)
def test_help_and_the_command_reference_show_the_same_form(name: str, form: str) -> None:
    subcommand = find_subcommand(name)
    assert subcommand is not None and subcommand.form() == form
    assert f"| `{form.replace('|', chr(92) + '|')}` |" in COMMAND_REFERENCE


@pytest.mark.parametrize(
    ("text", "problem", "form"),
    [
        ("remind off Europe/Berlin", "off takes nothing after it.", "[off|HH:MM [TIMEZONE]]"),
        ("recap off 10:00", "off takes nothing after it.", "[off|DAY [HH:MM]]"),
        (
            "practice stop now",
            "stop takes nothing after it.",
            "[timed MINUTES] [stop|TOPIC] [easy|medium|hard|any]",
        ),
        ("flag", "Say what is wrong.", "REASON..."),
    ],
)
def test_a_word_that_stands_alone_and_a_missing_reason_get_the_form(
    text: str, problem: str, form: str
) -> None:
    name, *args = text.split()
    with pytest.raises(CommandError) as caught:
        parse_command(name, args)
    assert str(caught.value).startswith(f"{problem}\nUse: /quiz {name} {form}\nExample: /quiz ")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("now nosuchtopic", "Unknown topic 'nosuchtopic'. Topics: "),
        ("practice nosuch", "Unknown topic 'nosuch'. Topics: "),
        ("goal 2020-01-01", "'2020-01-01' is not after today: give a later date, or off."),
    ],
)
async def test_an_argument_the_handler_refuses_gets_the_form(
    quiz: QuizHarness, text: str, problem: str
) -> None:
    body = (await quiz.command(text)).card.body
    name = text.split()[0]
    form = find_subcommand(name).form()  # type: ignore[union-attr]
    assert body.startswith(problem)
    assert f"\nUse: {form}\nExample: /quiz {name}" in body
    assert len(body.split("\n")[0]) < 200  # the topic list is shortened


def test_a_long_topic_list_is_cut_short() -> None:
    known = [f"topic-{n:02d}" for n in range(21)]
    message = str(unknown_topic("cooking", known))
    assert message == (
        "Unknown topic 'cooking'. Topics: topic-00, topic-01, topic-02, topic-03, topic-04,"
        " topic-05, topic-06, topic-07 and 13 more (`/quiz topics` lists them)."
    )
    assert str(unknown_topic("cooking", known[:2])).endswith("Topics: topic-00, topic-01.")
