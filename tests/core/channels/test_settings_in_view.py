"""`/quiz config` alone shows every channel setting with its value and the command that
changes it, `/quiz config SETTING` shows one; members may look, only admins change."""

from __future__ import annotations

import dataclasses

from bot.channels._cards import settings_card
from bot.channels.commands import CONFIG
from bot.channels.config_settings import CHANNEL_SETTINGS
from bot.channels.setting_requests import ShowSettings
from bot.features import parse_invocation
from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.quiz_command.grammar import Param, ParamKind, Setting
from tests.harness import QuizHarness


async def test_config_alone_shows_every_setting_to_a_member(quiz: QuizHarness) -> None:
    await quiz.command("config grace 2.5")
    await quiz.command("config answers blind")

    response = await quiz.command("config", by="alice")

    text = response.card.plain_text()
    assert not response.public
    for setting in CHANNEL_SETTINGS:
        assert f"`/quiz config {setting.form()}`" in text
    assert "grace: 2.5 h" in text and "answers: blind" in text
    assert "reveal-emoji: 💡" in text and "followups: after_first_answer" in text
    assert "reveal-reactors: 1" in text


async def test_config_with_a_setting_shows_that_one(quiz: QuizHarness) -> None:
    await quiz.command("config reveal-reactors 3")

    text = (await quiz.command("config reveal-reactors", by="alice")).card.plain_text()

    assert "reveal-reactors: 3" in text and "`/quiz config reveal-reactors N`" in text
    assert "grace" not in text


async def test_a_member_still_cannot_change_a_setting(quiz: QuizHarness) -> None:
    await quiz.command("now")

    refused = (await quiz.command("config grace 1", by="alice")).card.plain_text()

    assert "admin" in refused
    assert (await quiz.service.engine.channel(quiz.channel)).grace_hours == 6  # type: ignore[union-attr]


def test_viewing_is_not_an_admin_action_and_changing_is() -> None:
    assert not parse_invocation("config", []).admin
    assert not parse_invocation("config", ["grace"]).admin
    assert parse_invocation("config", ["grace", "1"]).admin
    assert parse_invocation("config", ["grace"]).command == ShowSettings("grace")


def test_a_setting_declared_later_is_shown_without_touching_the_display() -> None:
    later = Setting(
        "shoe-size",
        Param("value", ParamKind.NUMBER, "size", metavar="SIZE", maximum=50),
        lambda size: size,
        lambda channel: channel.grace_hours * 7,
        lambda size: f"EU {size:g}",
    )
    channel = ChannelSettings(1, ChannelRef("fake", "team", "C1", "practice"), "UTC")
    subcommand = dataclasses.replace(CONFIG, settings=(*CONFIG.settings, later))

    card = settings_card(channel, subcommand.settings)

    assert "shoe-size: EU 42 · change: `/quiz config shoe-size SIZE`" in card.plain_text()
