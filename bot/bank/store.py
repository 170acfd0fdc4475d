"""The workspace question bank's persistence: suggestions, a workspace's own questions,
overrides of bundled questions, errata flags and suggestion bonuses.

Its own aggregate, apart from rounds and answers: the SQLite store exposes it as
``store.bank`` (see ``storage/sql/bank.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.kernel.refs import MemberRef
from questions.pack import Question


@dataclass(frozen=True, slots=True)
class Workspace:
    """A team on one platform (Slack team, Discord guild, the console's ``local``)."""

    platform: str
    workspace_id: str

    def pack_id(self) -> str:
        """The database pack name of the workspace's own questions (never a pack file's id:
        those cannot hold ':')."""
        return f"workspace:{self.platform}:{self.workspace_id}"


class SuggestionState(StrEnum):
    """Where a suggestion is in its moderation."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A question a member suggested for the workspace's own pack, and its moderation."""

    id: int
    workspace: Workspace
    channel_id: int  # where it was suggested: the bonus counts on this channel's board
    member: MemberRef
    question: Question
    state: SuggestionState
    created_at: datetime
    reason: str | None = None
    question_id: int | None = None  # the approved question's database id


@dataclass(frozen=True, slots=True)
class OwnQuestion:
    """A question of a workspace's own pack (``question_id``: its database id)."""

    question_id: int
    workspace: Workspace
    question: Question


@dataclass(frozen=True, slots=True)
class Override:
    """What one workspace shows instead of a bundled question."""

    question_id: int
    workspace: Workspace
    question: Question


@dataclass(frozen=True, slots=True)
class StoredQuestion:
    """What the bank stores of one question id: the workspace question it is (None: it is
    none), and each workspace's override of it."""

    question_id: int
    own: OwnQuestion | None
    overrides: tuple[Override, ...]


@dataclass(frozen=True, slots=True)
class Flag:
    """A member's report of a mistake in a round's question (``/quiz flag``), and its outcome."""

    id: int
    workspace: Workspace
    channel_id: int
    round_id: int
    round_number: int
    question_id: int
    pack: str
    question_key: str  # the question's id inside its pack
    member: MemberRef
    reason: str
    created_at: datetime
    resolved_at: datetime | None = None
    resolution: str | None = None


@dataclass(frozen=True, slots=True)
class Approval:
    """An approved suggestion: its new question id and whether the suggester got the bonus."""

    question_id: int
    bonus_awarded: bool


class TooManyWaiting(Exception):
    """The member has as many suggestions waiting for review as one may have."""


class BankStore(Protocol):
    """Every write is committed before the call returns. A store that replicas share
    announces each change of a question's texts (approval, edit, override) in the
    transaction that makes it (``ChannelChanges``, ``ChangeKind.QUESTION``)."""

    async def add_suggestion(
        self,
        workspace: Workspace,
        channel_id: int,
        member_id: int,
        question: Question,
        at: datetime,
        *,
        waiting_limit: int | None = None,
    ) -> int:
        """The new pending suggestion's id. With ``waiting_limit``, raises
        :class:`TooManyWaiting`, adding nothing, when the member already has that many
        suggestions waiting in the workspace; checked in the insert's transaction, so
        suggestions sent at once cannot pass it together."""
        ...

    async def get_suggestion(self, suggestion_id: int) -> Suggestion | None: ...

    async def pending_suggestions(self, workspace: Workspace) -> list[Suggestion]: ...

    async def update_suggestion(self, suggestion_id: int, question: Question) -> bool:
        """Replace a pending suggestion's question; False when it is no longer pending."""
        ...

    async def approve_suggestion(
        self,
        suggestion_id: int,
        question: Question,
        *,
        decided_by: int,
        at: datetime,
        bonus_points: int,
    ) -> Approval | None:
        """In one transaction: register ``question`` in the workspace's pack, mark the
        suggestion approved, and award the suggester ``bonus_points`` on the board of the
        channel it came from. None (changing nothing) when it is no longer pending."""
        ...

    async def reject_suggestion(
        self, suggestion_id: int, *, decided_by: int, reason: str | None, at: datetime
    ) -> bool: ...

    async def own_questions(self, workspace: Workspace | None = None) -> list[OwnQuestion]:
        """The workspace's own questions (every workspace's with None), oldest first."""
        ...

    async def save_own_question(self, question_id: int, question: Question, at: datetime) -> None:
        """Edit a workspace question in place (its database id and rounds stay)."""
        ...

    async def overrides(self, workspace: Workspace | None = None) -> list[Override]:
        """The workspace's overrides (every workspace's with None), oldest first."""
        ...

    async def stored_question(self, question_id: int) -> StoredQuestion:
        """The question's texts as stored now (another replica may have changed them)."""
        ...

    async def save_override(self, override: Override, *, member_id: int, at: datetime) -> None: ...

    async def add_flag(
        self,
        workspace: Workspace,
        channel_id: int,
        round_id: int,
        member_id: int,
        reason: str,
        at: datetime,
    ) -> int: ...

    async def flags(
        self, workspace: Workspace | None = None, *, open_only: bool = True
    ) -> list[Flag]: ...

    async def get_flag(self, flag_id: int) -> Flag | None: ...

    async def open_flag_by(self, round_id: int, member_id: int) -> Flag | None:
        """The member's open flag on the round, if any (a repeated flag folds into it)."""
        ...

    async def resolve_flags(
        self, workspace: Workspace, question_ids: Sequence[int], resolution: str, at: datetime
    ) -> int:
        """Close the open flags of these questions in the workspace; returns how many."""
        ...

    async def resolve_flag(self, flag_id: int, resolution: str, at: datetime) -> bool:
        """Close one open flag; False when it was not open."""
        ...

    async def workspaces(self) -> list[Workspace]:
        """Workspaces that have suggestions, own questions, overrides or flags."""
        ...
