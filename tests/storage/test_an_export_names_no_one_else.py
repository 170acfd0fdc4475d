"""A member's export names no other member, on both backends: not by name, platform id or
internal id, and not by the id of another member's row (their answer, their review or
vote of the member's answer, their mock-interview group), which another export or a
channel's export would match to them. Everything of the member's own is in it, their
mock interviews too: opt-in, weeks, the questions, the ratings given and received, and a
grade a partner's rating gave is exported as that rating, not as the member's own grade.

Another member's rows get ids no row of the member has, so any of them found anywhere in
the export is a leak."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.kernel.grades import Grade
from bot.learning import memory_model
from bot.learning.store import GradeDraft
from storage.sqlite.store import SqliteStore
from storage.timestamps import from_db
from tests.storage.backends import BACKENDS, open_store
from tests.storage.test_store import draft, member, new_channel, new_round

BOB, ADMIN = 9001, 9002
BOB_ANSWER, BOB_REVIEW, BOB_VOTE, GROUP = 8001, 7001, 7002, 6001
OTHERS = {BOB, ADMIN, BOB_ANSWER, BOB_REVIEW, BOB_VOTE, GROUP}
RATED_AT = "2026-03-04T10:00:00.000000Z"


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened  # type: ignore[misc]  # both backends, typed as SQLite's for brevity


def values(node: Any) -> Iterator[Any]:
    """Every value in an exported table, however nested."""
    if isinstance(node, dict):
        for value in node.values():
            yield from values(value)
    elif isinstance(node, list):
        for value in node:
            yield from values(value)
    else:
        yield node


async def alice_with_teammates(store: SqliteStore) -> tuple[int, int]:
    """Alice and Bob answered a round, voted on and reviewed each other's answer (Bob's
    review anonymous, his 👍 public), met for a mock interview and rated each other; an
    admin rejected Alice's suggestion. Alice's id and her round's question id."""
    alice = await member(store, "alice")
    channel = await new_channel(store)
    round_ = await new_round(store, channel)
    mine = await store.answers.record_answer(draft(round_, alice, "m-alice"))
    assert mine.answer_id is not None
    db = store.database
    await db.change(
        "INSERT INTO members (id, platform, workspace, member, display_name) VALUES"
        " (?, 'slack', 'T1', 'U-bob', 'Bob'), (?, 'slack', 'T1', 'U-admin', 'Admin')",
        (BOB, ADMIN),
    )
    await db.change(
        "INSERT INTO answers (id, round_id, channel_id, member_id, message_id, text,"
        " answered_at, before_reveal, scoring, base_points, votes, points)"
        " VALUES (?, ?, ?, ?, 'm-bob', 'by bob', '2026-03-02T09:01:00Z', 1, 1, 10, 0, 10)",
        (BOB_ANSWER, round_.id, channel, BOB),
    )
    # hers first: a row id SQLite gives her after one of theirs would be theirs plus one
    await db.change(
        "INSERT INTO votes (answer_id, voter_id, voted_at) VALUES (?, ?, '2026-03-02T10:00:00Z')",
        (BOB_ANSWER, alice),
    )
    await db.change(
        "INSERT INTO answer_reviews (answer_id, round_id, channel_id, reviewer_id, score,"
        " comment, points, reviewed_at)"
        " VALUES (?, ?, ?, ?, 2, 'from alice', 2, '2026-03-02T11:00:00Z')",
        (BOB_ANSWER, round_.id, channel, alice),
    )
    await db.change(
        "INSERT INTO votes (id, answer_id, voter_id, voted_at) VALUES"
        " (?, ?, ?, '2026-03-02T10:00:00Z')",
        (BOB_VOTE, mine.answer_id, BOB),
    )
    await db.change(
        "INSERT INTO answer_reviews (id, answer_id, round_id, channel_id, reviewer_id, score,"
        " comment, points, reviewed_at)"
        " VALUES (?, ?, ?, ?, ?, 3, 'clear on the ring', 2, '2026-03-02T11:00:00Z')",
        (BOB_REVIEW, mine.answer_id, round_.id, channel, BOB),
    )
    await db.change(
        "INSERT INTO suggestions (platform, workspace, channel_id, member_id, body, state,"
        " created_at, decided_at, decided_by) VALUES ('slack', 'T1', ?, ?, 'my question',"
        " 'rejected', '2026-03-02', '2026-03-03', ?)",
        (channel, alice, ADMIN),
    )
    question = round_.question_id
    await db.change(
        "INSERT INTO pair_members (channel_id, member_id, member, display_name, direct_channel,"
        " topics, timezone, joined_at) VALUES (?, ?, 'U-alice', 'alice', 'D-alice', '[\"gpu\"]',"
        " 'UTC', '2026-03-01')",
        (channel, alice),
    )
    await db.change(
        "INSERT INTO pairings (id, channel_id, week, key, paired_at)"
        " VALUES (1, ?, '2026-W10', 'pair:x', '2026-03-02')",
        (channel,),
    )
    await db.change(
        "INSERT INTO pair_groups (id, pairing_id, channel_id, week, members, conversation)"
        " VALUES (?, 1, ?, '2026-W10', ?, 'G-alice-bob')",
        (GROUP, channel, json.dumps([alice, BOB])),
    )
    for candidate, interviewer, score in ((alice, BOB, 3), (BOB, alice, 2)):
        await db.change(
            "INSERT INTO pair_briefs (group_id, candidate_id, interviewer_id, question_id)"
            " VALUES (?, ?, ?, ?)",
            (GROUP, candidate, interviewer, question),
        )
        await db.change(
            "INSERT INTO pair_ratings (group_id, interviewer_id, candidate_id, question_id,"
            " score, covered, rated_at) VALUES (?, ?, ?, ?, ?, '[1]', ?)",
            (GROUP, interviewer, candidate, question, score, RATED_AT),
        )
    # the grade bob's rating gave alice, as `/quiz pair rate` records it, and one of her own
    for grade, at in ((Grade.GOOD, RATED_AT), (Grade.MISSED, "2026-03-05T08:00:00.000000Z")):
        await store.learning.record_grade(
            GradeDraft(alice, question, grade, from_db(at)),
            member_card=memory_model.member_card,
            channel_card=memory_model.channel_card,
        )
    return alice, question


async def test_an_export_names_no_other_member_by_any_id(store: SqliteStore) -> None:
    alice, _ = await alice_with_teammates(store)

    tables = await store.member_data.member_tables(alice)

    found = set(values(tables))
    assert found & OTHERS == set(), f"another member's ids in the export: {found & OTHERS}"
    text = json.dumps(tables, default=str)
    for named in ("U-bob", "Bob", "U-admin", "Admin", "G-alice-bob"):
        assert named not in text
    # what is hers is all there
    assert len(tables["votes_given"]) == 1 and len(tables["votes_received"]) == 1
    assert [r["comment"] for r in tables["reviews_given"]] == ["from alice"]
    assert [(r["score"], r["comment"]) for r in tables["reviews_received"]] == [
        (3, "clear on the ring")
    ]
    assert tables["suggestions"][0]["state"] == "rejected"


async def test_an_export_holds_the_members_mock_interviews(store: SqliteStore) -> None:
    alice, question = await alice_with_teammates(store)

    tables = await store.member_data.member_tables(alice)

    [opt_in] = tables["pair_members"]
    assert json.loads(opt_in["topics"]) == ["gpu"] and opt_in["timezone"] == "UTC"
    assert tables["pair_groups"] == [
        {
            "channel_id": opt_in["channel_id"],
            "week": "2026-W10",
            "partners": 1,
            "interviewed_on": question,
            "asked": question,
        }
    ]
    [received] = tables["pair_ratings_received"]
    [given] = tables["pair_ratings_given"]
    assert (received["week"], received["score"], received["question_id"]) == (
        "2026-W10",
        3,
        question,
    )
    assert (given["score"], given["covered"]) == (2, "[1]")
    sources = {g["graded_at"]: g["source"] for g in tables["grades"]}
    assert sources == {RATED_AT: "pair_rating", "2026-03-05T08:00:00.000000Z": "self"}
