"""The OAuth2 invite URL: the scopes and exactly the permissions the bot uses."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")


def required_permissions() -> discord.Permissions:
    """View channel, send messages (also in threads), create public threads, create
    private threads (where a mock-interview pair meets: bots cannot open group DMs), add
    reactions, read message history (reconciliation, find_sent) and embed links."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        create_private_threads=True,
        add_reactions=True,
        read_message_history=True,
        embed_links=True,
    )


def invite_url(client_id: int) -> str:
    if client_id <= 0:
        raise ValueError("the Discord application (client) id must be a positive integer")
    return discord.utils.oauth_url(client_id, permissions=required_permissions(), scopes=SCOPES)
