"""The real QuizService and SqliteStore driven through the Discord adapter and the fake Discord."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from adapters.discord.connector import DiscordOptions, DiscordPlatform
from bot.kernel.config import QuizConfig
from bot.kernel.events import Event
from bot.kernel.grades import Grade
from bot.kernel.models import Round
from bot.kernel.refs import MemberRef
from bot.kernel.render import Response
from bot.service import QuizService
from questions.catalog import Catalog
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore
from tests.discord.conftest import (
    TOKEN,
    button_payload,
    command_payload,
    eventually,
    feed,
    message_payload,
    reaction_payload,
)
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord
from tests.fakes import FakeClock

ANN = 730000000000000001
LEAD = 730000000000000003
BOB = 730000000000000004
MESSAGES = r"/channels/\d+/messages"
EPHEMERAL = 64


@dataclass
class Handled:
    """Wraps the service's handler; records each event once its handling finished."""

    service: QuizService
    done: list[tuple[Event, Response | None]] = field(default_factory=list)

    async def __call__(self, event: Event) -> Response | None:
        response = await self.service.handle(event)
        self.done.append((event, response))
        return response


@dataclass
class Quiz:
    fake: FakeDiscord
    store: SqliteStore
    service: QuizService
    catalog: Catalog
    clock: FakeClock
    handled: Handled
    platform: DiscordPlatform | None = None

    async def connect(self) -> DiscordPlatform:
        """(Re)start the Discord side: a new client, as after a process restart."""
        options = DiscordOptions(
            token=TOKEN,
            api_url=self.fake.base_url,
            guild_ready_timeout=0.05,
            retry_first_delay=0.01,
        )
        self.platform = DiscordPlatform(options, topics=self.catalog.topics, store=self.store)
        self.service.platforms["discord"] = self.platform
        await self.platform.start(self.handled)
        return self.platform

    async def disconnect(self) -> None:
        if self.platform is not None:
            await self.platform.stop()
            self.platform = None

    def connected(self) -> DiscordPlatform:
        assert self.platform is not None
        return self.platform

    async def run(self, payload_event: str, payload: dict[str, Any]) -> None:
        """Feed one gateway payload and wait until the core has handled it."""
        before = len(self.handled.done)
        feed(self.connected(), payload_event, payload)
        await eventually(lambda: len(self.handled.done) > before)

    async def command(self, user: int, name: str, options: dict[str, object] | None = None) -> None:
        """Run a /quiz command and wait until its answer reached the member."""
        self.clock.advance(seconds=1)
        replies = len(self.fake.interaction_replies)
        await self.run("INTERACTION_CREATE", command_payload(self.fake, user, name, options))
        # deferred, then a follow-up (private) or the placeholder deleted (public / none)
        await eventually(lambda: len(self.fake.interaction_replies) >= replies + 2)

    async def round(self) -> Round:
        channels = await self.store.channels.list_channels()
        assert channels, "no quiz channel yet"
        round_ = await self.store.rounds.latest_round(channels[0].id)
        assert round_ is not None
        return round_


@pytest.fixture
async def quiz(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Quiz]:
    fake.add_member(ANN, "ann")
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    fake.add_member(BOB, "@everyone <@&1>")  # a hostile display name
    catalog = load_catalog()
    clock = FakeClock(datetime(2025, 1, 6, 9, 0, tzinfo=UTC))
    async with SqliteStore.open(tmp_path / "quiz.db") as store:
        service = QuizService(
            store=store,
            platforms={},
            catalog=catalog,
            clock=clock,
            config=QuizConfig(),
            rng=random.Random(7),
            background=False,
        )
        await service.start()
        quiz = Quiz(fake, store, service, catalog, clock, Handled(service))
        await quiz.connect()
        try:
            yield quiz
        finally:
            await quiz.disconnect()
            await service.stop()


def bot_posts(fake: FakeDiscord, channel_id: int) -> list[dict[str, Any]]:
    return [m for m in fake.channel_messages(channel_id) if m["author"]["id"] == str(fake.bot_id)]


async def _post_round(quiz: Quiz) -> Round:
    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    return await quiz.round()


async def test_a_whole_round_through_the_adapter(quiz: Quiz) -> None:
    fake = quiz.fake
    round_ = await _post_round(quiz)

    [question] = fake.channel_messages()
    assert round_.question_message == question["id"]
    assert question["embeds"][0]["title"] == "Question #1"
    assert question["components"][0]["components"][0]["custom_id"] == f"quizbot:reveal:{round_.id}"
    assert round_.thread == question["id"]  # the thread started from the question
    assert fake.channels[int(question["id"])]["name"].startswith("Question #1 · ")
    assert fake.reactions[(int(question["id"]), "💡")] == [fake.bot_id]

    assert round_.thread is not None
    thread_id = int(round_.thread)
    answer = fake.add_message(thread_id, ANN, "Shard the batch, @everyone")
    await quiz.run("MESSAGE_CREATE", message_payload(fake, answer))
    vote = reaction_payload(fake, thread_id, int(answer["id"]), LEAD, "👍")
    await quiz.run("MESSAGE_REACTION_ADD", vote)
    reveal = reaction_payload(fake, fake.channel_id, int(question["id"]), BOB, "💡")
    await quiz.run("MESSAGE_REACTION_ADD", reveal)
    await quiz.service.settle()

    [answer_record] = await quiz.store.answers.round_answers(round_.id)
    assert answer_record.text == "Shard the batch, @everyone" and answer_record.votes == 1
    assert (await quiz.round()).revealed_at is not None
    bot_posts = [
        m for m in fake.channel_messages(thread_id) if m["author"]["id"] == str(fake.bot_id)
    ]
    kinds = [m["embeds"][0]["title"] for m in bot_posts]
    assert len(kinds) == 2  # follow-ups after the first answer, then the outline
    for request in fake.requests_to("POST", MESSAGES):
        assert request.body["allowed_mentions"] == {"parse": []}
        assert request.body["enforce_nonce"] is True

    await quiz.command(BOB, "leaderboard", {"public": True})
    board = fake.channel_messages()[-1]
    assert "ann" in str(board["embeds"])
    assert fake.requests_to("POST", MESSAGES)[-1].body["allowed_mentions"] == {"parse": []}


async def test_admin_commands_need_manage_guild_and_members_get_private_answers(
    quiz: Quiz,
) -> None:
    feed(quiz.connected(), "INTERACTION_CREATE", command_payload(quiz.fake, ANN, "now"))
    await eventually(lambda: len(quiz.fake.interaction_replies) == 2)  # refused by the core
    await quiz.command(ANN, "me")  # no quiz here yet: a private answer
    await eventually(lambda: len(quiz.fake.interaction_replies) == 4)

    assert await quiz.store.channels.list_channels() == []
    _, refusal, deferred, private = quiz.fake.interaction_replies
    assert "Manage Server" in refusal["embeds"][0]["description"]
    assert refusal["flags"] & EPHEMERAL
    assert deferred["data"]["flags"] & EPHEMERAL and private["flags"] & EPHEMERAL
    assert quiz.fake.channel_messages() == []

    await _post_round(quiz)
    assert len(quiz.fake.channel_messages()) == 1


async def test_the_reveal_button_reveals_once(quiz: Quiz) -> None:
    round_ = await _post_round(quiz)
    [question] = quiz.fake.channel_messages()
    custom_id = f"quizbot:reveal:{round_.id}"

    for _ in range(2):
        await quiz.run("INTERACTION_CREATE", button_payload(quiz.fake, ANN, question, custom_id))
        await quiz.service.settle()

    assert (await quiz.round()).revealed_at is not None
    thread_posts = quiz.fake.channel_messages(int(question["id"]))
    assert len(thread_posts) == 2  # follow-ups (with the reveal) and the outline, once


async def test_a_429_on_the_question_is_retried_and_posts_one_message(quiz: Quiz) -> None:
    quiz.fake.rate_limit_next("POST", MESSAGES, retry_after=0.05)

    round_ = await _post_round(quiz)

    assert len(quiz.fake.requests_to("POST", rf"/channels/{quiz.fake.channel_id}/messages")) == 2
    [question] = quiz.fake.channel_messages()
    assert round_.question_message == question["id"]


async def test_a_send_whose_answer_was_lost_is_not_sent_twice(quiz: Quiz) -> None:
    quiz.fake.fail_next("POST", MESSAGES, 500, after_effect=True)  # created, answer lost

    await quiz.command(LEAD, "now")
    await quiz.service.settle()
    assert (await quiz.round()).question_message is None
    quiz.clock.advance(minutes=10)  # the outbox retries later; Discord forgot the nonce
    quiz.fake.forget_nonces = True
    await quiz.service.settle()

    [question] = quiz.fake.channel_messages()
    assert (await quiz.round()).question_message == question["id"]
    assert (await quiz.round()).thread == question["id"]


async def test_a_forbidden_channel_is_disabled_with_its_reason(quiz: Quiz) -> None:
    quiz.fake.channels[quiz.fake.channel_id]["forbidden"] = True

    await _post_round(quiz)
    await quiz.command(ANN, "stats")

    [channel] = await quiz.store.channels.list_channels()
    assert channel.disabled_reason is not None and "403" in channel.disabled_reason
    assert "disabled" in str(quiz.fake.interaction_replies[-1]["embeds"])


async def test_a_reveal_and_answers_made_while_offline_are_reconciled_once(quiz: Quiz) -> None:
    fake = quiz.fake
    round_ = await _post_round(quiz)
    assert round_.thread is not None and round_.question_message is not None
    await quiz.disconnect()

    answer = fake.add_message(int(round_.thread), ANN, "Answered while the bot was down")
    fake.add_reaction(int(round_.thread), int(answer["id"]), "👍", LEAD)
    fake.add_reaction(fake.channel_id, int(round_.question_message), "💡", BOB)
    platform = await quiz.connect()
    await eventually(lambda: len(quiz.handled.done) >= 4)  # answer, vote, reveal (+ command)
    await quiz.service.settle()
    await platform.reconcile_open_rounds()  # a second pass (e.g. after a resume)
    await quiz.service.settle()

    [answer_record] = await quiz.store.answers.round_answers(round_.id)
    assert answer_record.message_id == answer["id"] and answer_record.votes == 1
    assert (await quiz.round()).revealed_at is not None
    bot_posts = [
        m
        for m in fake.channel_messages(int(round_.thread))
        if m["author"]["id"] == str(fake.bot_id)
    ]
    assert len(bot_posts) == 2  # follow-ups and outline, each once


async def test_a_reveal_button_forged_with_a_huge_round_is_refused_at_the_edge(
    quiz: Quiz, caplog: pytest.LogCaptureFixture
) -> None:
    await _post_round(quiz)
    [question] = quiz.fake.channel_messages()
    replies = len(quiz.fake.interaction_replies)
    custom_id = "quizbot:reveal:" + "9" * 30
    button = {"type": 2, "style": 1, "label": "Reveal", "custom_id": custom_id}
    question["components"] = [{"type": 1, "components": [button]}]
    forged = button_payload(quiz.fake, ANN, question, custom_id)

    with caplog.at_level(logging.INFO):
        feed(quiz.connected(), "INTERACTION_CREATE", forged)
        await eventually(lambda: len(quiz.fake.interaction_replies) > replies)

    [reply] = quiz.fake.interaction_replies[replies:]
    assert "out of date" in reply["data"]["embeds"][0]["description"]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert (await quiz.round()).revealed_at is None


async def test_grade_buttons_on_the_outline_grade_privately(quiz: Quiz) -> None:
    round_ = await _post_round(quiz)
    [question] = quiz.fake.channel_messages()
    reveal = f"quizbot:reveal:{round_.id}"
    await quiz.run("INTERACTION_CREATE", button_payload(quiz.fake, ANN, question, reveal))
    await quiz.service.settle()
    [outline] = [
        m
        for m in quiz.fake.channel_messages(int(question["id"]))
        if m["embeds"][0]["title"] == "Sample answer outline"
    ]
    custom_ids = [c["custom_id"] for row in outline["components"] for c in row["components"]]
    assert custom_ids == [
        f"quizbot:grade_{word}:{round_.id}" for word in ("missed", "partly", "good", "nailed")
    ] + [f"quizbot:checklist:{round_.id}", f"quizbot:review_answer:r{round_.id}"]
    before = len(quiz.fake.interaction_replies)
    press = button_payload(quiz.fake, ANN, outline, f"quizbot:grade_partly:{round_.id}")
    await quiz.run("INTERACTION_CREATE", press)
    await eventually(lambda: len(quiz.fake.interaction_replies) >= before + 2)
    reply = quiz.fake.interaction_replies[-1]
    assert reply["flags"] & EPHEMERAL
    assert reply["embeds"][0]["title"] == "Question #1 graded: partly"
    member_id = await quiz.store.members.member_id(
        MemberRef("discord", str(quiz.fake.guild_id), str(ANN), "ann")
    )
    assert await quiz.store.learning.round_grades(round_.id) == {member_id: Grade.PARTLY}


async def test_an_answer_the_database_could_not_write_is_kept_retried_and_counted_once(
    quiz: Quiz, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_ = await _post_round(quiz)
    [question] = quiz.fake.channel_messages()
    answer = quiz.fake.add_message(int(question["id"]), ANN, "Shard the optimizer state")
    record_answer = quiz.store.answers.record_answer
    failures = [sqlite3.OperationalError("database is locked")] * 3

    async def failing_then_healing(draft: Any) -> Any:
        if failures:
            raise failures.pop()
        return await record_answer(draft)

    monkeypatch.setattr(quiz.store.answers, "record_answer", failing_then_healing)

    for _ in range(2):  # the gateway replays it while it is kept
        feed(quiz.connected(), "MESSAGE_CREATE", message_payload(quiz.fake, answer))
    await eventually(lambda: not failures and len(quiz.connected()._pending or []) == 0)

    [saved] = await quiz.store.answers.round_answers(round_.id)
    assert saved.text == "Shard the optimizer state"


def dm_payload(fake: FakeDiscord, channel_id: int, user: int, text: str) -> dict[str, Any]:
    """A member's message in their DM with the bot: no guild, no member."""
    return fake.add_message(channel_id, user, text)


def dm_button(fake: FakeDiscord, user: int, message: dict[str, Any], custom: str) -> dict[str, Any]:
    payload = button_payload(fake, user, message, custom)
    member = payload.pop("member")
    del payload["guild_id"]
    payload["user"] = member["user"]
    payload["context"] = 1  # the bot's DM
    return payload


async def test_practice_in_the_discord_dm(quiz: Quiz) -> None:
    await quiz.command(LEAD, "now")
    await quiz.command(ANN, "practice")
    await quiz.service.settle()  # practice messages go through the outbox
    opened = [r for r in quiz.fake.requests if r.path == "/users/@me/channels"]
    assert len(opened) == 1
    dm = max(c for c, json in quiz.fake.channels.items() if json["type"] == 1)
    assert bot_posts(quiz.fake, dm)[0]["embeds"][0]["title"] == "Practice question"

    while bot_posts(quiz.fake, dm)[-1]["embeds"][0]["title"] != "Sample answer outline":
        assert len(bot_posts(quiz.fake, dm)) < 10
        await quiz.run("MESSAGE_CREATE", dm_payload(quiz.fake, dm, ANN, "my answer"))
        await quiz.service.settle()
    titles = [m["embeds"][0]["title"] for m in bot_posts(quiz.fake, dm)]
    assert titles[0] == "Practice question" and titles[1].startswith("Follow-up 1 of")

    outline = bot_posts(quiz.fake, dm)[-1]
    good = next(
        c["custom_id"]
        for row in outline["components"]
        for c in row["components"]
        if "grade_good" in c["custom_id"]
    )
    replies = len(quiz.fake.interaction_replies)
    await quiz.run("INTERACTION_CREATE", dm_button(quiz.fake, ANN, outline, good))
    # deferred, then the placeholder deleted: the confirmation is the DM's, shown once
    await eventually(lambda: len(quiz.fake.interaction_replies) >= replies + 2)
    graded = str(quiz.fake.interaction_replies[replies:])
    assert "Practice graded" not in graded and "'deleted': True" in graded
    ann = await quiz.store.members.member_id(
        MemberRef("discord", str(quiz.fake.guild_id), str(ANN))
    )
    assert len(await quiz.store.learning.member_cards(ann)) == 1  # the guild member's card

    await quiz.service.settle()
    confirmation = bot_posts(quiz.fake, dm)[-1]
    assert confirmation["embeds"][0]["title"] == "Practice graded: good"
    assert "Next question" in str(confirmation["components"])
    assert sum("graded" in str(m["embeds"]) for m in bot_posts(quiz.fake, dm)) == 1

    await quiz.run("MESSAGE_CREATE", dm_payload(quiz.fake, dm, ANN, "anything else"))
    await quiz.service.settle()
    assert "practice session waits" in str(bot_posts(quiz.fake, dm)[-1]["embeds"][0])


async def test_a_review_reminder_in_the_discord_dm(quiz: Quiz) -> None:
    await quiz.command(LEAD, "now")
    await quiz.command(ANN, "remind", {"time": "08:30", "timezone": "Europe/Berlin"})
    assert "Reminder set" in str(quiz.fake.interaction_replies[-1])
    (reminder,) = await quiz.store.reminders.reminders()
    assert (reminder.local_time, reminder.timezone) == ("08:30", "Europe/Berlin")
    round_ = await quiz.round()
    graded = await quiz.service.learning.grade(
        reminder.member_id, round_.question_id, Grade.MISSED, quiz.clock.now()
    )
    berlin = ZoneInfo("Europe/Berlin")
    day = (graded.card.due + timedelta(days=1)).astimezone(berlin).date()
    slot = datetime(day.year, day.month, day.day, 8, 30, tzinfo=berlin).astimezone(UTC)
    quiz.clock.set(slot)
    for _ in range(2):  # the slot handled twice: one reminder
        await quiz.service.reminders.on_slot(reminder.member_id, slot)
        await quiz.service.settle()
    dm = int(reminder.direct.channel_id)
    assert quiz.fake.channels[dm]["type"] == 1  # the member's DM with the bot
    (sent,) = bot_posts(quiz.fake, dm)
    assert sent["embeds"][0]["title"] == "Time to review"
    assert "1 question is due for review" in sent["embeds"][0]["description"]

    await quiz.command(ANN, "remind", {"time": "off"})
    assert await quiz.store.reminders.reminders() == []
