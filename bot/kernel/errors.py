"""The errors of the core, under the one root :class:`QuizError`.

What the member is told for each of them is decided in one place,
:func:`bot.inbound.reply_for`.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from bot.kernel.quoting import quoted
from questions.errors import QuizError

__all__ = [
    "WORKSPACE_REMOVED",
    "BadArgument",
    "ChannelUnavailable",
    "DuplicateDelivery",
    "NotRecorded",
    "PlatformError",
    "QuizError",
    "Refused",
    "WorkspaceRemoved",
    "unknown_topic",
    "unknown_topics",
]
TOPICS_SHOWN = 8  # an unknown topic's message names this many; /quiz topics lists them all

# Why every quiz channel of a workspace stopped; installing the app again restarts them.
WORKSPACE_REMOVED = "the app was removed from this workspace; installing it again restarts the quiz"


class PlatformError(QuizError):
    """A platform call failed. ``retry_after`` (seconds) is the platform's own hint, if any."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChannelUnavailable(PlatformError):
    """The channel is gone or closed to the bot (403/404, archived, not a member).

    The engine disables the channel with this reason instead of retrying forever.
    """


class WorkspaceRemoved(ChannelUnavailable):
    """The app is not installed in the channel's workspace (uninstalled, or its token
    revoked): the channel is disabled with :data:`WORKSPACE_REMOVED` until a reinstall."""

    def __init__(self) -> None:
        super().__init__(WORKSPACE_REMOVED)


class NotRecorded(QuizError):
    """An inbound answer, edit, reaction or direct message could not be recorded (the
    store failed).

    ``QuizService.handle`` raises it, chained from the cause, instead of acknowledging
    the event: Slack then answers non-2xx so the event is redelivered; Discord, which
    never redelivers, keeps the event and retries it. A redelivery counts once.
    """


class DuplicateDelivery(QuizError):
    """An inbound event whose id was recorded with its effect before: a platform's
    redelivery (a Slack retry, a gateway replay). Nothing was changed again."""


class Refused(QuizError):
    """A member's request that cannot be carried out; the message tells them why."""


class BadArgument(Refused):
    """A ``/quiz`` argument of the right form that the handler cannot use (an unknown topic,
    a past date): like a grammar error, the member is shown the form and an example."""


def unknown_topic(topic: str, known: Sequence[str]) -> BadArgument:
    """``Unknown topic 'x'. Topics: a, b, ...``, the list cut short when it is long."""
    return BadArgument(f"Unknown topic {quoted(topic)}. Topics: {_topic_list(known)}.")


def unknown_topics(unknown: Sequence[str], known: Sequence[str], action: str) -> Refused:
    """``Unknown topic(s): 'gpus' (did you mean 'gpu'?). Topics: ...`` and the form of
    ``/quiz topics ACTION``, which the generic form of ``/quiz topics`` would blur."""
    named = ", ".join(_with_close_match(topic, known) for topic in unknown)
    return Refused(
        f"Unknown topic(s): {named}. Topics: {_topic_list(known)}.\n"
        f"Use: /quiz topics {action} TOPIC [TOPIC...]"
    )


def _with_close_match(topic: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(topic, known, n=1)
    return f"{quoted(topic)} (did you mean {quoted(close[0])}?)" if close else quoted(topic)


def _topic_list(known: Sequence[str]) -> str:
    """``a, b, c``, cut short when it is long."""
    shown = ", ".join(known[:TOPICS_SHOWN])
    if len(known) > TOPICS_SHOWN:
        shown += f" and {len(known) - TOPICS_SHOWN} more (`/quiz topics` lists them)"
    return shown
