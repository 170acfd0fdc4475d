"""Sync the slash commands only when their definitions changed.

Discord rate-limits command registration hard (and global updates take time
to spread), so the bot keeps a hash of the payload it last synced in the
store's meta table and syncs again only when that hash changes. With a dev
guild the commands are registered there (instantly visible), else globally.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Protocol

import discord
from discord import app_commands

log = logging.getLogger(__name__)


class MetaStore(Protocol):
    """Where the hash of the last synced commands is kept."""

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


def sync_target(dev_guild: int | None) -> str:
    return f"guild:{dev_guild}" if dev_guild else "global"


def meta_key(application_id: int, target: str) -> str:
    return f"discord:commands:{application_id}:{target}"


def definitions_hash(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> str:
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    application_id: int,
    dev_guild: int | None,
    store: MetaStore,
) -> bool:
    """Sync the tree's commands when they changed since the last sync; True when synced."""
    guild = discord.Object(id=dev_guild) if dev_guild else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    target = sync_target(dev_guild)
    key = meta_key(application_id, target)
    digest = definitions_hash(tree, guild)
    if await store.get_meta(key) == digest:
        log.info("Discord commands unchanged (%s); not syncing", target)
        return False
    synced = await tree.sync(guild=guild)
    await store.set_meta(key, digest)
    log.info("synced %d Discord command(s) to %s", len(synced), target)
    return True
