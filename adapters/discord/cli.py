"""`quizbot discord` commands: the invite URL with exactly the permissions the bot uses."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from adapters.discord.settings import DiscordSettings
from bot.settings import SettingsError, read_settings


def register(subparsers: Any) -> None:
    group: argparse.ArgumentParser = subparsers.add_parser(
        "discord", help="Discord helpers (invite URL)", description=__doc__
    )
    actions = group.add_subparsers(dest="discord_command", metavar="ACTION", required=True)
    invite = actions.add_parser(
        "invite-url",
        help="print the OAuth2 URL that adds the bot to a server",
        description=(
            "Print the OAuth2 URL with the bot and applications.commands scopes and the "
            "permissions the bot uses. The application id comes from --client-id, or is "
            "asked from Discord with QUIZBOT_DISCORD_TOKEN."
        ),
    )
    invite.add_argument("--client-id", type=int, help="the application (client) id")
    invite.add_argument("--config", type=Path, help="a TOML settings file")
    invite.set_defaults(handler=_invite_url)


def _invite_url(args: argparse.Namespace) -> int:
    # Imported here: discord.py is heavy and only this command needs it.
    from adapters.discord.invite import invite_url

    client_id: int | None = args.client_id
    if client_id is None:
        try:
            client_id = asyncio.run(_application_id(args.config))
        except (SettingsError, RuntimeError) as problem:
            print(f"quizbot discord invite-url: {problem}", file=sys.stderr)
            return 2
    try:
        print(invite_url(client_id))
    except ValueError as problem:
        print(f"quizbot discord invite-url: {problem}", file=sys.stderr)
        return 2
    return 0


async def _application_id(config: Path | None) -> int:
    import discord

    from adapters.discord.endpoint import use_api_base
    from adapters.platforms import setting_names

    settings = read_settings(DiscordSettings, config, also_known=setting_names())
    if settings.discord_token is None:
        raise SettingsError("give --client-id, or set QUIZBOT_DISCORD_TOKEN to look it up")
    if settings.discord_api_url:
        use_api_base(settings.discord_api_url)
    client = discord.Client(intents=discord.Intents.none())
    try:
        await client.login(settings.discord_token.get_secret_value())
        if client.application_id is None:
            raise RuntimeError("Discord did not tell the application id")
        return client.application_id
    except discord.LoginFailure as error:
        raise RuntimeError("Discord rejected QUIZBOT_DISCORD_TOKEN") from error
    except (discord.HTTPException, OSError) as error:
        raise RuntimeError(f"cannot reach Discord ({type(error).__name__})") from error
    finally:
        await client.close()
