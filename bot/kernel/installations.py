"""The installation aggregate: chat workspaces that installed the app themselves (Slack's
OAuth flow), each with its own bot token, and the one-time states of installs in progress.

The token is stored sealed: the adapter encrypts it before it reaches the store and
decrypts it after, so the database never holds a usable token.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class InstallationRecord:
    """One workspace's installation; ``sealed_token`` is the encrypted bot token."""

    workspace: str
    team_name: str
    bot_user_id: str
    sealed_token: str
    installed_at: datetime
    enterprise: str | None = None
    app_id: str | None = None
    bot_id: str | None = None
    scopes: str = ""
    installer: str | None = None


class InstallationStore(Protocol):
    """Installations and OAuth states, kept in the quiz's database."""

    async def save_installation(self, record: InstallationRecord) -> None:
        """Insert, or replace the workspace's earlier installation (a re-install)."""
        ...

    async def find_installation(self, workspace: str) -> InstallationRecord | None: ...

    async def delete_installation(
        self, workspace: str, *, installed_before: datetime | None = None
    ) -> bool:
        """Forget the workspace's installation, only if it was installed before
        ``installed_before`` when given (a late removal must spare a reinstall); False when
        nothing was forgotten."""
        ...

    async def issue_oauth_state(
        self, state: str, expires_at: datetime, *, now: datetime, keep: int
    ) -> None:
        """Store a new state, prune the states expired at ``now``, and keep only the ``keep``
        newest pending ones (this one among them): the states of installs that are never
        finished do not pile up."""
        ...

    async def consume_oauth_state(self, state: str, now: datetime) -> bool:
        """True once for a state issued and not yet expired; it is gone afterwards."""
        ...
