"""Discord and Slack served by one process from one database."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from pydantic import SecretStr

from adapters.discord.connector import DiscordOptions, DiscordPlatform
from adapters.slack.factory import create_slack_platform
from adapters.slack.settings import SlackSettings
from bot.kernel.config import QuizConfig
from bot.service import QuizService
from questions.loader import load_catalog
from storage.sqlite.store import SqliteStore
from tests.discord.conftest import TOKEN, command_payload, eventually, feed, message_payload
from tests.discord.fake_discord import MANAGE_GUILD, FakeDiscord
from tests.fakes import FakeClock
from tests.slack.driver import ADMIN, SlackQuiz
from tests.slack.fake_slack import BOT_TOKEN, FakeSlack
from tests.slack.signed import SIGNING_SECRET

LEAD = 730000000000000003
ANN = 730000000000000001


async def test_one_process_one_database_two_platforms(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.add_member(LEAD, "lead", permissions=MANAGE_GUILD)
    fake.add_member(ANN, "ann")
    fake_slack = FakeSlack(users={ADMIN: {"is_admin": True, "name": "Ada"}})
    await fake_slack.start()
    catalog = load_catalog()
    clock = FakeClock(datetime(2025, 1, 6, 9, 0, tzinfo=UTC))
    slack = create_slack_platform(
        SlackSettings(
            _env_file=None,  # type: ignore[call-arg]
            slack_bot_token=SecretStr(BOT_TOKEN),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=fake_slack.api_url,
        ),
        http=True,
        host="127.0.0.1",
        port=0,
        post_interval=0,
    )
    try:
        async with SqliteStore.open(tmp_path / "quiz.db") as store:
            discord_side = DiscordPlatform(
                DiscordOptions(token=TOKEN, api_url=fake.base_url, guild_ready_timeout=0.05),
                topics=catalog.topics,
                store=store,
            )
            service = QuizService(
                store=store,
                platforms={"discord": discord_side, "slack": slack},
                catalog=catalog,
                clock=clock,
                config=QuizConfig(),
                rng=random.Random(7),
                background=False,
            )
            await service.start()
            handled: list[object] = []

            async def handle(event: object) -> object:
                response = await service.handle(event)  # type: ignore[arg-type]
                handled.append(event)
                return response

            await slack.start(service.handle)
            await discord_side.start(handle)  # type: ignore[arg-type]
            slack_quiz = SlackQuiz(service, slack, fake_slack, clock)
            try:
                feed(discord_side, "INTERACTION_CREATE", command_payload(fake, LEAD, "now"))
                await eventually(lambda: len(handled) == 1)
                clock.advance(seconds=1)
                await slack_quiz.command("now", by=ADMIN)
                await service.settle()

                [question] = fake.channel_messages()
                answer = fake.add_message(int(question["id"]), ANN, "from Discord")
                feed(discord_side, "MESSAGE_CREATE", message_payload(fake, answer))
                await eventually(lambda: len(handled) == 2)
                await slack_quiz.reply("from Slack", by=ADMIN)

                channels = await store.channels.list_channels()
                assert sorted(c.ref.platform for c in channels) == ["discord", "slack"]
                for channel in channels:
                    round_ = await store.rounds.open_round(channel.id)
                    assert round_ is not None and round_.question_message is not None
                    [answer_record] = await store.answers.round_answers(round_.id)
                    assert answer_record.text == f"from {channel.ref.platform.title()}"
                assert slack_quiz.question().ts
            finally:
                await discord_side.stop()
                await slack.stop()
                await service.stop()
    finally:
        await fake_slack.stop()
