"""The outbox keys of a practice session's steps: one key, one message. Another feature
waiting for a step (the coach's card waits for the outline) reads them here."""

from __future__ import annotations


def step_key(session_id: int, step: str) -> str:
    """The outbox key of a session's step ("practice:7:question")."""
    return f"practice:{session_id}:{step}"


def outline_key(session_id: int) -> str:
    return step_key(session_id, "outline")
