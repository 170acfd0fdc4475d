"""How a blind answer waits for the reveal and is posted then.

A blind answer is stored as a row of ``answers`` like a reply in the thread (same scoring,
same bonus before the reveal), with a placeholder instead of a platform message id until it
is posted. At the reveal of a blind channel's round the outline's outbox action first posts
the round's waiting answers in the thread, oldest first; each posted message replaces its
answer's placeholder before the next is sent, so the placeholders left are exactly the
answers still to post (the action's stored progress) and a vote on the posted message counts
for its author. A round closed before its reveal (``/quiz skip``, the next question) posts
its waiting answers all the same, by an action of its own (``ActionKind.BLIND_ANSWERS``)
queued in the transaction that closes it, without the outline.
"""

from __future__ import annotations

from bot.kernel.models import AnswerRecord
from bot.kernel.render import Button, Card, CardKind
from bot.rounds.cards import REVIEW_ACTION

PLACEHOLDER_PREFIX = "blind:"


def placeholder(member_id: int) -> str:
    """The message id of a member's blind answer until it is posted (one per round)."""
    return f"{PLACEHOLDER_PREFIX}{member_id}"


def post_key(round_id: int, answer_id: int) -> str:
    """The outbox key of one blind answer's post, so a post whose recording was lost in a
    crash is found again instead of posted twice."""
    return f"round:{round_id}:blind_answer:{answer_id}"


def blind_answer_card(answer: AnswerRecord, vote_emoji: str) -> Card:
    return Card(
        title=f"{answer.member_name}'s answer",
        body=answer.text,
        footer=f"Answered blind before the reveal. React {vote_emoji} to vote for it.",
        kind=CardKind.INFO,
        answer_by=answer.member_name,
        buttons=(Button("Review", REVIEW_ACTION, f"a{answer.id}"),),
    )
