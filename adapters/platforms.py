"""The platforms quizbot runs on, one line each, and choosing the ones to run.

A new platform is a folder ``adapters/<name>/`` whose ``plugin.py`` declares it (see
:mod:`adapters.plugin`), and its line in :data:`PLATFORMS`. The runtime, the CLI and the
doctor loop over this list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapters.console.plugin import CONSOLE
from adapters.discord.plugin import DISCORD
from adapters.plugin import PlatformConnector, PlatformPlugin, Wiring, require
from adapters.slack.plugin import SLACK
from bot.settings import QuizbotSettings, Settings, SettingsError

# In this order 'auto' runs the platforms it picks.
PLATFORMS: tuple[PlatformPlugin[Any], ...] = (CONSOLE, DISCORD, SLACK)
FALLBACK = CONSOLE  # what 'auto' runs when no platform has its credentials set


def platform_names() -> str:
    """``console, discord, slack``."""
    return ", ".join(plugin.name for plugin in PLATFORMS)


def workspace_names() -> str:
    """What names a workspace on each platform: ``Discord server id, Slack team id, ...``."""
    return ", ".join(plugin.workspace for plugin in sorted(PLATFORMS, key=_console_last))


def _console_last(plugin: PlatformPlugin[Any]) -> bool:
    return plugin is FALLBACK


def setting_names() -> list[str]:
    """Every platform's settings, as the TOML file names them (``slack_mode``)."""
    return [name for plugin in PLATFORMS for name in plugin.settings.model_fields]


@dataclass(frozen=True, slots=True)
class PlatformSetup:
    """A platform with its own settings."""

    plugin: PlatformPlugin[Any]
    settings: QuizbotSettings

    @property
    def name(self) -> str:
        return self.plugin.name

    def build(self, wiring: Wiring) -> PlatformConnector:
        return self.plugin.build(self.settings, wiring)


@dataclass(frozen=True, slots=True)
class PlatformChoice:
    """The platforms to run, in order, and every platform's settings."""

    running: tuple[PlatformSetup, ...]
    every: tuple[PlatformSetup, ...]

    @classmethod
    def of(cls, *settings: QuizbotSettings) -> PlatformChoice:
        """Exactly the platforms whose settings are given, in that order."""
        plugins = {plugin.settings: plugin for plugin in PLATFORMS}
        running = tuple(PlatformSetup(plugins[type(each)], each) for each in settings)
        return cls(running, running)

    @property
    def names(self) -> list[str]:
        return [setup.name for setup in self.running]

    def check_credentials(self) -> None:
        """Raise a SettingsError naming the settings the running platforms still need."""
        for setup in self.running:
            require(setup.settings, *setup.plugin.required(setup.settings))

    def check(self) -> list[str]:
        """Refuse settings that cannot work, with a SettingsError naming them: first each
        running platform's credentials, then the rest of every platform's settings. Returns
        what each says of how it will run (the doctor shows it)."""
        self.check_credentials()
        said = [setup.plugin.check(setup.settings, setup in self.running) for setup in self.every]
        return [text for text in said if text]


def choose_platforms(
    settings: Settings, config: Path | None = None, **flags: Any
) -> PlatformChoice:
    """The platforms ``settings.platform`` names (``--platform``, ``QUIZBOT_PLATFORM``):
    a comma list, or 'auto', the platforms whose credentials are set (else the console);
    each with its settings from the environment, .env, ``config`` and its ``flags``."""
    known = [*Settings.model_fields, *setting_names()]
    every = tuple(
        PlatformSetup(plugin, plugin.read(config, also_known=known, **flags))
        for plugin in PLATFORMS
    )
    by_name = {setup.name: setup for setup in every}
    if settings.platform.strip() == "auto":
        chosen = [s.name for s in every if s.plugin.configured(s.settings)] or [FALLBACK.name]
    else:
        chosen = [name.strip() for name in settings.platform.split(",") if name.strip()]
    for name in chosen:
        if name not in by_name:
            raise SettingsError(
                f"unknown platform {name!r} in --platform or QUIZBOT_PLATFORM;"
                f" use {platform_names()}"
            )
    return PlatformChoice(tuple(by_name[name] for name in chosen), every)
