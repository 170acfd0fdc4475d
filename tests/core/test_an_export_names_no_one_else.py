"""``/quiz export me`` through the core, on both store backends: an anonymous review stays
anonymous in the author's export (nothing in it matches the reviewer's public 👍), and a
mock interview is exported, its partner's rating as a rating, not as the member's grade."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest

from questions.catalog import Catalog
from tests.core.test_pairing import opted_in
from tests.core.test_peer_reviews import catalog_with_key_points, revealed_round_with_answers
from tests.harness import QuizHarness

MEMBER_WORDS = ("member", "voter", "reviewer", "interviewer", "candidate", "by")


@pytest.fixture
def catalog() -> Catalog:
    return catalog_with_key_points()


@pytest.fixture
def quiz(quiz_on_both: QuizHarness) -> QuizHarness:
    return quiz_on_both


async def exported(quiz: QuizHarness, name: str) -> dict[str, Any]:
    await quiz.command("export me", by=name)
    [file] = [f for who, f in quiz.platform.files if who == name]
    with zipfile.ZipFile(io.BytesIO(file.content)) as archive:
        tables: dict[str, Any] = json.loads(archive.read("quizbot-data.json"))["tables"]
    return tables


async def test_the_author_cannot_tell_who_reviewed_them(quiz: QuizHarness) -> None:
    await revealed_round_with_answers(quiz)  # ann's answer is #1
    answer = (await quiz.service.store.answers.round_answers((await quiz.round()).id))[0]
    await quiz.react("carol", "👍", message_id=answer.message_id)  # public
    await quiz.react("dan", "👍", message_id=answer.message_id)
    await quiz.command("rate #1 2 the ring is missing", by="carol")  # anonymous

    tables = await exported(quiz, "ann")

    [review] = tables["reviews_received"]
    assert review["comment"] == "the ring is missing"
    assert len(tables["votes_received"]) == 2
    for section in ("reviews_received", "votes_received"):
        for row in tables[section]:
            named = [c for c in row if c == "id" or any(w in c for w in MEMBER_WORDS)]
            assert named == [], f"{section} names a member: {named}"


async def test_a_mock_interview_and_its_rating_are_exported(quiz: QuizHarness) -> None:
    await opted_in(quiz, "ann", "bob", topics="gpu")
    await quiz.command("pair now")
    await quiz.command("pair rate 3 1 2", by="bob")  # bob interviewed ann

    tables = await exported(quiz, "ann")

    [opt_in] = tables["pair_members"]
    assert json.loads(opt_in["topics"]) == ["gpu"]
    [week] = tables["pair_groups"]
    assert week["partners"] == 1 and week["interviewed_on"] is not None
    [rating] = tables["pair_ratings_received"]
    assert (rating["score"], json.loads(rating["covered"])) == (3, [1, 2])
    assert tables["pair_ratings_given"] == []
    [grade] = tables["grades"]
    assert grade["source"] == "pair_rating" and grade["question_id"] == rating["question_id"]
    assert "Bob" not in json.dumps(tables)
