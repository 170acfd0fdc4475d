"""What can go wrong when the coach asks its endpoint; none of these messages carries the key."""

from __future__ import annotations

from bot.kernel.errors import QuizError


class CoachError(QuizError):
    """The coach could not propose ticks for an answer."""


class EndpointUnavailable(CoachError):
    """A timeout, a refused connection, a 5xx or a 429: worth another try later.
    ``retry_after`` (seconds) is the endpoint's own hint, if it gave one."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class EndpointRefused(CoachError):
    """A 4xx other than 429 (a wrong key, an unknown model, a request it will not take):
    trying again will not help until the operator changes something."""


class MalformedOutput(CoachError):
    """The endpoint answered, but not with the JSON asked for: retried once, then dropped,
    never guessed at."""
