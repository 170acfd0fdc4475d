"""What practice tells an answer coach, if one is wired in (see ``bot.coaching``): typed
here, by practice, so practice imports no feature built on it."""

from __future__ import annotations

from typing import Protocol


class PracticeCoach(Protocol):
    async def answered(self, session_id: int, member_id: int, text: str) -> None:
        """The session's question was answered with ``text`` (its follow-ups are not read).
        Never raises: the answer's step goes on whatever the coach does."""
        ...

    async def probe(self, session_id: int) -> str | None:
        """The coach's own follow-up for the session, asked after the pack's (None: none).
        Never raises."""
        ...

    async def outline_queued(self, session_id: int) -> None:
        """The session's outline is queued: a card that waited for it may follow it."""
        ...
