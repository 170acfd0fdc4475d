"""What a member's last interaction told the bot: whether they may manage the server, and the
interaction itself, through which they are answered privately while its token lives."""

from __future__ import annotations

import time

import discord

from bot.kernel.refs import MemberRef

ADMIN_MEMORY_SECONDS = 300.0
REMEMBERED_LIMIT = 1024  # members; beyond it, the stale ones are forgotten


class RecentInteractions:
    """Each member's permission (for :data:`ADMIN_MEMORY_SECONDS`) and last interaction."""

    def __init__(self) -> None:
        self._admins: dict[tuple[str, str], tuple[bool, float]] = {}
        self._interactions: dict[tuple[str, str], discord.Interaction] = {}

    def remember(self, interaction: discord.Interaction, member: MemberRef) -> None:
        key = (member.workspace, member.member_id)
        self._admins[key] = (interaction.permissions.manage_guild, time.monotonic())
        self._interactions[key] = interaction
        now = time.monotonic()
        if len(self._admins) > REMEMBERED_LIMIT:
            self._admins = {
                k: v for k, v in self._admins.items() if now - v[1] < ADMIN_MEMORY_SECONDS
            }
        if len(self._interactions) > REMEMBERED_LIMIT:
            self._interactions = {k: v for k, v in self._interactions.items() if not v.is_expired()}

    def admin(self, member: MemberRef) -> bool | None:
        """Whether ``member`` may manage the server, as known lately; None: not known."""
        remembered = self._admins.get((member.workspace, member.member_id))
        if remembered is not None and time.monotonic() - remembered[1] < ADMIN_MEMORY_SECONDS:
            return remembered[0]
        return None

    def remember_admin(self, member: MemberRef, allowed: bool) -> None:
        self._admins[(member.workspace, member.member_id)] = (allowed, time.monotonic())

    def interaction_of(self, member: MemberRef) -> discord.Interaction | None:
        """The member's last interaction, while it can still be answered."""
        interaction = self._interactions.get((member.workspace, member.member_id))
        if interaction is None or interaction.is_expired():
            return None
        return interaction
