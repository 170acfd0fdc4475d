"""The ``/quiz`` slash command group: typed options in, the core's text grammar out.

Each subcommand turns its options into the words of the core grammar
(``/quiz schedule spec:"weekdays 09:30" timezone:Europe/Berlin`` becomes
``Command(name="schedule", args=("weekdays", "09:30", "Europe/Berlin"))``) and
hands them to a dispatcher, saying whether the invocation needs an admin.

Discord only honours ``default_permissions`` and ``guild_only`` on a top-level
command, not on subcommands, and putting ``manage_guild`` on the whole group
would hide ``/quiz leaderboard`` from members; so the admin subcommands are
enforced in code (``manage_guild``) by the dispatcher, and the core asks
``is_admin`` again.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

import discord
from discord import app_commands

CommandDispatch = Callable[[discord.Interaction, str, tuple[str, ...], bool], Awaitable[None]]
TopicSource = Callable[[], Sequence[str]]

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices
CONFIG_SETTINGS = ("reveal-emoji", "followups", "grace")


def words(*values: str | None) -> tuple[str, ...]:
    """The whitespace-separated words of the given option values, in order."""
    return tuple(word for value in values if value for word in value.split())


def complete_last_word(current: str, candidates: Sequence[str]) -> list[app_commands.Choice[str]]:
    """Choices completing the last word of ``current`` (several topics may be typed)."""
    head, _, last = current.rpartition(" ")
    typed = set(head.split())
    matches = [c for c in candidates if c.lower().startswith(last.lower()) and c not in typed]
    prefix = f"{head} " if head else ""
    return [
        app_commands.Choice(name=f"{prefix}{c}"[:100], value=f"{prefix}{c}"[:100])
        for c in sorted(matches)[:AUTOCOMPLETE_LIMIT]
    ]


class QuizGroup(app_commands.Group):
    """``/quiz``: everyone's reports plus the admin subcommands (checked in code)."""

    def __init__(self, dispatch: CommandDispatch, topics: TopicSource) -> None:
        super().__init__(
            name="quiz", description="Daily interview practice question", guild_only=True
        )
        self._dispatch = dispatch
        self._topics = topics

    async def _topic_choices(self, current: str) -> list[app_commands.Choice[str]]:
        return complete_last_word(current, list(self._topics()))

    # everyone

    @app_commands.command(description="How the quiz works and what you can do")
    async def help(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "help", (), False)

    @app_commands.command(description="Top members by points")
    @app_commands.describe(period="Which answers count", public="Post it in the channel")
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        period: Literal["week", "month", "all"] | None = None,
        public: bool = False,
    ) -> None:
        await self._dispatch(
            interaction, "leaderboard", words(period, "public" if public else None), False
        )

    @app_commands.command(description="Your points, streak and topics")
    async def me(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "me", (), False)

    @app_commands.command(description="This channel's quiz statistics")
    @app_commands.describe(public="Post it in the channel")
    async def stats(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self._dispatch(interaction, "stats", words("public" if public else None), False)

    @app_commands.command(description="List topics, or (admins) enable or disable some")
    @app_commands.describe(action="Admins: enable or disable", names="Topics, space-separated")
    async def topics(
        self,
        interaction: discord.Interaction,
        action: Literal["enable", "disable"] | None = None,
        names: str | None = None,
    ) -> None:
        admin = action is not None or bool(names)
        await self._dispatch(interaction, "topics", words(action, names), admin)

    @topics.autocomplete("names")
    async def _topics_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._topic_choices(current)

    @app_commands.command(description="Show the schedule, or (admins) change it")
    @app_commands.describe(
        spec='Admins: e.g. "weekdays 09:30" or "mon,wed,fri 10:00"',
        timezone="Admins: IANA timezone, e.g. Europe/Berlin",
    )
    async def schedule(
        self,
        interaction: discord.Interaction,
        spec: str | None = None,
        timezone: str | None = None,
    ) -> None:
        admin = bool(spec) or bool(timezone)
        await self._dispatch(interaction, "schedule", words(spec, timezone), admin)

    @schedule.autocomplete("timezone")
    async def _schedule_timezone(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        needle = current.lower()
        names = sorted(z for z in zoneinfo.available_timezones() if needle in z.lower())
        return [app_commands.Choice(name=z, value=z) for z in names[:AUTOCOMPLETE_LIMIT]]

    @app_commands.command(description="The question packs the bot knows")
    async def packs(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "packs", (), False)

    # admins

    @app_commands.command(description="Admins: post a question now")
    @app_commands.describe(topic="Only from this topic")
    async def now(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        await self._dispatch(interaction, "now", words(topic), True)

    @now.autocomplete("topic")
    async def _now_topic(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._topic_choices(current.strip())

    @app_commands.command(description="Admins: reveal the sample answer outline now")
    async def reveal(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "reveal", (), True)

    @app_commands.command(description="Admins: close the open round without revealing")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "skip", (), True)

    @app_commands.command(description="Admins: stop posting scheduled questions here")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "pause", (), True)

    @app_commands.command(description="Admins: resume scheduled questions here")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction, "resume", (), True)

    @app_commands.command(description="Admins: change a channel setting")
    @app_commands.describe(
        setting="Which setting",
        value="reveal-emoji: an emoji · followups: immediately, after_first_answer, "
        "with_reveal · grace: hours",
    )
    async def config(
        self,
        interaction: discord.Interaction,
        setting: Literal["reveal-emoji", "followups", "grace"],
        value: str,
    ) -> None:
        await self._dispatch(interaction, "config", words(setting, value), True)
