"""The runtime ports: how the process runs the core (connectors that deliver events, the
handler they deliver to, and what the core does when the app is removed from a workspace
or installed again)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from bot.kernel.events import Event
from bot.kernel.render import Response

EventHandler = Callable[[Event], Awaitable[Response | None]]


class Connector(Protocol):
    """A platform adapter's life cycle, driven by the runtime.

    ``start`` connects and begins delivering inbound events to ``handler``
    (it returns once connected; delivery goes on in the background until
    ``stop``). ``connected`` feeds the health check.
    """

    async def start(self, handler: EventHandler) -> None: ...

    async def stop(self) -> None: ...

    @property
    def connected(self) -> bool: ...


class WorkspaceInstalls(Protocol):
    """Stops and restarts every quiz channel of one workspace: the app was uninstalled
    (or its token revoked) there, and later installed again. Both are idempotent."""

    async def disable_workspace(self, platform: str, workspace: str) -> int:
        """Disable the workspace's quiz channels; how many were running until now."""
        ...

    async def enable_workspace(self, platform: str, workspace: str) -> int:
        """Enable again the channels a removal disabled; how many."""
        ...


@runtime_checkable
class WatchesInstalls(Protocol):
    """A connector that learns of installs and removals of the app (Slack's OAuth flow,
    ``app_uninstalled``) and tells the core through a :class:`WorkspaceInstalls`."""

    def watch_installs(self, core: WorkspaceInstalls) -> None: ...


@runtime_checkable
class EndsForGood(Protocol):
    """A connector whose connection can end for good (a rejected token, a gateway that
    gave up). ``until_ended`` returns the one-line cause; the runtime then stops the
    bot and exits non-zero, so a supervisor restarts it or an operator sees why."""

    async def until_ended(self) -> str: ...
