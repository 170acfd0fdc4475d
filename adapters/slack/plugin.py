"""Slack as a plugin: its settings, its ``quizbot run`` flags, its doctor checks and its
factory (Socket Mode or HTTP; one workspace's bot token, or installs in many)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.checks import Check
from adapters.plugin import DoctorContext, Flag, PlatformPlugin, Wiring
from adapters.slack.settings import (
    SlackSettings,
    check_slack_settings,
    slack_configured,
    slack_required,
)

if TYPE_CHECKING:
    from adapters.slack.connector import SlackPlatform


def create_slack(settings: SlackSettings, wiring: Wiring) -> SlackPlatform:
    from adapters.slack.factory import create_slack_platform

    return create_slack_platform(
        settings,
        http=settings.slack_mode == "http",
        port=settings.slack_http_port,
        progress=wiring.store.unfinished_cards,
        installations=wiring.store.installations,
    )


async def slack_doctor(settings: SlackSettings, context: DoctorContext) -> list[Check]:
    from adapters.slack.doctor import slack_checks

    return await slack_checks(settings, context)


SLACK = PlatformPlugin(
    name="slack",
    title="Slack",
    workspace="Slack team id",
    settings=SlackSettings,
    build=create_slack,
    configured=slack_configured,
    required=slack_required,
    check=check_slack_settings,
    doctor=slack_doctor,
    flags=(
        Flag(
            ("--http",),
            "slack_mode",
            "Slack over HTTP (events at /slack/events; needs QUIZBOT_SLACK_SIGNING_SECRET) "
            "instead of Socket Mode",
            const="http",
        ),
        Flag(("--port",), "slack_http_port", "Slack HTTP mode port", type=int),
    ),
)
