"""Who is a quiz admin on Slack, and what members are called.

Admins are the workspace's admins and owners (``users.info``) plus the user
ids listed in ``QUIZBOT_SLACK_ADMINS``. Profiles are cached for a while so a
busy channel does not call ``users.info`` on every command.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 300.0
# A name is looked up while Slack waits for our 200 (3 s): never wait long for it.
NAME_TIMEOUT_SECONDS = 1.0

UserLookup = Callable[[str], Awaitable[Mapping[str, Any]]]


@dataclass(frozen=True, slots=True)
class SlackProfile:
    """What Slack says of a member: admin or owner, and the name to show."""

    user: str
    display_name: str
    is_admin: bool


class SlackMembers:
    """A TTL cache over ``users.info`` (``lookup`` returns the response's ``user`` object)."""

    def __init__(
        self,
        lookup: UserLookup,
        *,
        allow_list: Iterable[str] = (),
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
        name_timeout: float = NAME_TIMEOUT_SECONDS,
    ) -> None:
        self._lookup = lookup
        self._name_timeout = name_timeout
        self._allow_list = frozenset(u.strip() for u in allow_list if u.strip())
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        # In expiry order: every entry lives ttl_seconds, so the oldest insert expires first.
        self._cache: OrderedDict[str, tuple[float, SlackProfile]] = OrderedDict()

    async def profile(self, user: str) -> SlackProfile:
        """The member's profile (raises what ``lookup`` raises when it is not cached)."""
        cached = self._cache.get(user)
        now = self._monotonic()
        if cached is not None and cached[0] > now:
            return cached[1]
        info = await self._lookup(user)
        profile = SlackProfile(
            user=user,
            display_name=_display_name(info),
            is_admin=bool(info.get("is_admin") or info.get("is_owner")),
        )
        self._cache[user] = (now + self._ttl, profile)
        self._cache.move_to_end(user)
        self._drop_expired(now)
        return profile

    def _drop_expired(self, now: float) -> None:
        while self._cache:
            user, (expires, _) = next(iter(self._cache.items()))
            if expires > now:
                return
            del self._cache[user]

    def __len__(self) -> int:
        """Profiles held (expired ones go as new ones are looked up)."""
        return len(self._cache)

    async def is_admin(self, user: str) -> bool:
        if user in self._allow_list:
            return True
        return (await self.profile(user)).is_admin

    async def display_name(self, user: str) -> str:
        """Best effort: the name members see, or "" when Slack cannot tell us now."""
        try:
            async with asyncio.timeout(self._name_timeout):
                return (await self.profile(user)).display_name
        except Exception as problem:  # a name is a nicety; never fail an event over it
            log.warning("could not look up Slack user %s: %s", user, problem)
            return ""


def _display_name(info: Mapping[str, Any]) -> str:
    profile = info.get("profile") or {}
    for candidate in (
        profile.get("display_name"),
        profile.get("real_name"),
        info.get("real_name"),
        info.get("name"),
    ):
        if isinstance(candidate, str) and candidate.strip():
            return candidate.strip()
    return ""
