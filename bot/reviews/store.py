"""The reviews aggregate's seam: members' reviews of each other's answers, best answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.kernel.models import ActionKind, AnswerRecord, OutboxDraft, action_key
from bot.kernel.refs import MemberRef


@dataclass(frozen=True, slots=True)
class ReviewDraft:
    """A member's review of another member's answer."""

    answer_id: int
    round_id: int
    channel_id: int
    reviewer_id: int
    score: int  # 1-4, see bot.reviews.rubric
    covered: tuple[int, ...] | None  # the key points (1-based) the answer covered
    comment: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A review as stored, with its writer's name and the points it earned them."""

    id: int
    answer_id: int
    reviewer_id: int
    reviewer_name: str
    score: int
    covered: tuple[int, ...] | None
    comment: str
    points: int
    reviewed_at: datetime


@dataclass(frozen=True, slots=True)
class ReviewResult:
    review: StoredReview
    replaced: bool  # the reviewer had reviewed this answer before: this one replaced it


@dataclass(frozen=True, slots=True)
class BestAnswer:
    """A round's best answer and when it was marked so."""

    answer_id: int
    marked_at: datetime


def best_answer_key(round_id: int, best: BestAnswer) -> str:
    """The outbox key of the post of one marking of a round's best answer: marking another
    answer and then this one again is a new marking, posted again."""
    stamp = best.marked_at.strftime("%Y%m%dT%H%M%S%f")
    return f"{action_key(round_id, ActionKind.BEST_ANSWER)}:{best.answer_id}:{stamp}"


# Builds the note telling an answer's author of a review, from the review as stored.
TellAuthor = Callable[[StoredReview], OutboxDraft]


@dataclass(frozen=True, slots=True)
class ReviewedAnswer:
    """One of a member's answers with reviews: the member's own grade of its round (None:
    they gave none) and the reviews' scores."""

    round_id: int
    own: int | None
    scores: tuple[int, ...]


class ReviewStore(Protocol):
    """Persistence of reviews and best answers. Every write is committed before it returns."""

    async def record_review(
        self,
        draft: ReviewDraft,
        *,
        points: int,
        cap: int,
        key_points: int,
        tell: TellAuthor | None = None,
    ) -> ReviewResult:
        """Add the review, or replace the reviewer's earlier one of the answer (which keeps
        the points it earned). A new review earns ``points`` while the reviewer has fewer
        than ``cap`` reviews that earned points in the round, else none. In the same
        transaction, the answer's quality points follow its reviewers' ticks of the
        question's ``key_points`` (``bot.kernel.scoring.quality_points``), and the action
        ``tell`` builds from the review as stored is queued."""
        ...

    async def remove_review(self, answer_id: int, reviewer_id: int, key_points: int) -> bool:
        """Remove the review; the answer's quality points follow the reviews left."""
        ...

    async def answer_reviews(self, answer_id: int) -> list[StoredReview]:
        """The answer's reviews, oldest first."""
        ...

    async def reviewed_answers(self, member_id: int) -> list[ReviewedAnswer]:
        """The member's answers that have reviews, in every channel, oldest first."""
        ...

    async def member_ref(self, member_id: int) -> MemberRef | None:
        """Who a stored member is on their platform (to tell them privately)."""
        ...

    async def mark_best(self, round_id: int, best: BestAnswer, post: OutboxDraft) -> bool:
        """Mark the round's best answer and queue ``post`` in the same transaction; False,
        changing nothing, when it was that one already."""
        ...

    async def best_answer(self, round_id: int) -> BestAnswer | None: ...

    async def best_answers(
        self, channel_id: int, since: datetime, until: datetime
    ) -> list[AnswerRecord]:
        """The best answers of the channel's rounds marked in ``[since, until)``, in order."""
        ...
