"""The outbox rows of messages to teammates that name a member, found for their erasure.

A message to the member's own direct messages goes with them (``storage.sql.member_data``).
A message to a teammate is dropped, queued or sent (a sent one's stored card names them
too), when it is about the member; none is rewritten, because what it tells of no longer
exists:

- a review's notice to the answer's author (``review:<review>:<time>``): "Ann reviewed your
  answer" names the reviewer, and every notice is of a review the erasure deletes (one the
  member wrote, or one of the member's answer);
- a mock interview's intro to its group (``pair:<group>:intro``), which names everyone in it;
- the brief about the member to their interviewer (``pair:<group>:brief:<interviewer>``),
  and the member's own brief.

A trio's third member keeps their brief, which names someone else. Messages to a channel
(a best answer, blind answers, a recap) are built from the store when sent, so an erased
member is in none of them.
"""

from __future__ import annotations

import json

from storage.sql.session import Session

_REVIEWS = (
    "SELECT id FROM answer_reviews WHERE reviewer_id = ?"
    " OR answer_id IN (SELECT id FROM answers WHERE member_id = ?)"
)


async def sends_naming(session: Session, member_id: int) -> set[str]:
    """The outbox keys of the messages to teammates that name the member."""
    keys: set[str] = set()
    for review in await session.fetch(_REVIEWS, (member_id, member_id)):
        found = await session.fetch(
            "SELECT key FROM outbox WHERE key LIKE ?", (f"review:{review[0]}:%",)
        )
        keys.update(str(row[0]) for row in found)
    for group_id in await _groups_of(session, member_id):
        keys.add(f"pair:{group_id}:intro")
        keys.add(f"pair:{group_id}:brief:{member_id}")
        interviewers = await session.fetch(
            "SELECT interviewer_id FROM pair_briefs WHERE group_id = ? AND candidate_id = ?",
            (group_id, member_id),
        )
        keys.update(f"pair:{group_id}:brief:{row[0]}" for row in interviewers)
    return keys


async def _groups_of(session: Session, member_id: int) -> list[int]:
    rows = await session.fetch("SELECT id, members FROM pair_groups", ())
    return [int(row[0]) for row in rows if member_id in json.loads(str(row[1]))]
