"""What a reading raises for the outbox to try it again."""

from __future__ import annotations


class CoachRetry(Exception):
    """The endpoint failed this attempt; the outbox tries again after its backoff."""
