"""A member's own data through the core and the fake platform: the export of everything
of theirs (and nothing of anyone else's), the Anki deck, the erasure with its
confirmation, and the lead's readiness view."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import zipfile
from pathlib import Path

from bot.kernel.events import Reply
from bot.kernel.grades import Grade
from bot.kernel.platform import DataFile
from bot.kernel.refs import MessageRef, ThreadRef
from bot.member_data.anki import AnkiCard, back_html
from tests.harness import QuizHarness


async def graded_round(quiz: QuizHarness, grades: dict[str, str]) -> None:
    """A round answered and graded by each member named."""
    await quiz.command("now")
    for name in grades:
        await quiz.answer(name, f"{name}'s answer")
    await quiz.react("alice", "💡")
    for name, grade in grades.items():
        await quiz.command(f"grade {grade}", by=name)


def only_file(quiz: QuizHarness, member: str) -> DataFile:
    files = [file for who, file in quiz.platform.files if who == member]
    assert len(files) == 1, quiz.platform.files
    return files[0]


def zip_entries(file: DataFile) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(file.content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


async def test_export_me_sends_all_of_the_members_data_and_nobody_elses(
    quiz: QuizHarness,
) -> None:
    await graded_round(quiz, {"alice": "partly", "bob": "good"})
    await quiz.command("goal 2027-01-15", by="alice")
    await quiz.command("remind 08:30 Europe/Berlin", by="alice")

    response = await quiz.command("export me", by="alice")

    assert response.card.title.startswith("Sent: quizbot-data-")
    entries = zip_entries(only_file(quiz, "alice"))
    data = json.loads(entries["quizbot-data.json"])
    tables = data["tables"]
    assert [a["text"] for a in tables["answers"]] == ["alice's answer"]
    assert [g["rating"] for g in tables["grades"]] == [Grade.PARTLY.value]
    assert len(tables["member_cards"]) == 1
    assert tables["member_goals"][0]["target_date"] == "2027-01-15"
    assert tables["reminders"][0]["local_time"] == "08:30"
    assert data["member"] == "alice"
    # one CSV per table, with a header naming the columns
    assert entries["answers.csv"].decode().splitlines()[0].startswith("id,round_id")
    assert "bob's answer" not in entries["answers.csv"].decode()
    assert b"bob" not in entries["quizbot-data.json"].replace(b"bob's", b"")


async def test_export_anki_is_a_deck_of_the_missed_and_partly_questions(
    quiz: QuizHarness, tmp_path: Path
) -> None:
    await graded_round(quiz, {"alice": "missed"})
    first = await quiz.round()
    await graded_round(quiz, {"alice": "nailed"})  # not due, not missed: left out

    response = await quiz.command("export anki", by="alice")

    assert response.card.title.endswith(".apkg")
    deck = only_file(quiz, "alice")
    question = quiz.service.engine.question_for(quiz.channel, first.question_id)
    assert question is not None
    # an .apkg is a zip holding Anki's SQLite collection: read its notes back
    path = tmp_path / "collection.anki2"
    with zipfile.ZipFile(io.BytesIO(deck.content)) as archive:
        path.write_bytes(archive.read("collection.anki2"))
    with contextlib.closing(sqlite3.connect(path)) as db:
        notes = db.execute("SELECT flds, tags FROM notes").fetchall()
    assert len(notes) == 1
    front, back = notes[0][0].split("\x1f")
    assert question.question.split("\n")[0][:40] in front.replace("<br>", "\n")
    assert back.startswith(question.outline)
    assert notes[0][1].strip() == question.topic


def test_the_back_of_a_card_holds_the_outline_then_its_key_points() -> None:
    card = AnkiCard(
        "g", "Why <NCCL>?", "Rings & trees.\nThen more.", ("bandwidth", "latency"), "gpu"
    )
    assert back_html(card) == (
        "Rings &amp; trees.<br>Then more.<p><b>Key points</b></p>"
        "<ul><li>bandwidth</li><li>latency</li></ul>"
    )


async def test_export_anki_with_nothing_to_review_says_so(quiz: QuizHarness) -> None:
    response = await quiz.command("export anki", by="alice")
    assert response.card.title == "Nothing for Anki yet"
    assert quiz.platform.files == []


async def test_forget_me_asks_first_then_erases_everything_of_the_member(
    quiz: QuizHarness,
) -> None:
    await graded_round(quiz, {"alice": "partly", "bob": "good"})
    await quiz.command("goal 2027-01-15", by="alice")
    await quiz.command("remind 08:30 Europe/Berlin", by="alice")
    alice_id = await quiz.service.store.members.member_id(quiz.member("alice"))

    asked = await quiz.command("forget me", by="alice")
    assert "forget me confirm" in asked.card.body
    assert await quiz.service.store.learning.member_cards(alice_id)  # nothing erased yet

    done = await quiz.command("forget me confirm", by="alice")

    assert done.card.title == "Your quiz data is erased"
    tables = await quiz.service.store.member_data.member_tables(alice_id)
    assert {t: rows for t, rows in tables.items() if rows and t != "members"} == {}
    assert tables["members"][0]["display_name"] == ""
    board = await quiz.command("leaderboard", by="bob")
    assert "Alice" not in board.card.plain_text() and "Bob" in board.card.plain_text()
    bob_id = await quiz.service.store.members.member_id(quiz.member("bob"))
    assert await quiz.service.store.learning.member_cards(bob_id)  # bob's stay


async def test_an_erased_members_queued_reminder_is_never_sent(quiz: QuizHarness) -> None:
    await graded_round(quiz, {"alice": "missed", "bob": "missed"})
    await quiz.command("remind 08:30 Europe/Berlin", by="alice")
    card = quiz.service.practice.how_to_grade().card
    directs = {}
    for name in ("alice", "bob"):  # each has a send queued for their DMs
        member_id = await quiz.service.store.members.member_id(quiz.member(name))
        directs[name] = await quiz.platform.open_direct(quiz.member(name))
        await quiz.service.engine.send_direct(directs[name], card, f"remind:{member_id}:2099-01-01")

    await quiz.command("forget me confirm", by="alice")  # settles the outbox after
    await quiz.service.settle()

    sent_to = {m.channel.channel_id for m in quiz.platform.messages if m.card == card}
    assert sent_to == {directs["bob"].channel_id}
    alice_id = await quiz.service.store.members.member_id(quiz.member("alice"))
    assert await quiz.service.store.reminders.reminder(alice_id) is None


async def test_forget_me_of_a_stranger_erases_nothing(quiz: QuizHarness) -> None:
    response = await quiz.command("forget me confirm", by="carol")
    assert response.card.title == "Nothing to erase"


async def test_readiness_lists_members_with_a_goal_weakest_topics_first(
    quiz: QuizHarness,
) -> None:
    await graded_round(quiz, {"alice": "missed", "bob": "nailed", "carol": "good"})
    await quiz.command("goal 2027-01-15", by="alice")
    await quiz.command("goal 2027-03-01", by="bob")

    refused = await quiz.command("stats readiness", by="alice")
    shown = await quiz.command("stats readiness", by="admin")

    assert "admin" in refused.card.plain_text().lower()
    assert not shown.public
    names = [f.name for f in shown.card.fields]
    assert names == ["Alice", "Bob"]  # carol set no goal; the nearest goal first
    alice = shown.card.fields[0].value
    assert alice.startswith("Fri 15 Jan 2027") and "expected recall" in alice
    recall = {
        f.name: int(f.value.split("expected recall ")[1].split("%")[0]) for f in shown.card.fields
    }
    assert recall["Alice"] < recall["Bob"]


async def test_an_erased_answer_replayed_later_is_not_recorded_again(quiz: QuizHarness) -> None:
    """A platform replaying an answer with its message id as the event id (Discord's
    catch-up of open rounds after a restart) finds it handled: the erasure marked it, and
    the mark outlives the event's first record by the event retention."""
    await quiz.command("now")
    thread = ThreadRef(quiz.channel, await quiz.thread())
    answer = Reply(
        "a-77", quiz.channel, thread, MessageRef(quiz.channel, "a-77"), quiz.member("alice"), "x"
    )
    await quiz.service.handle(answer)
    quiz.clock.advance(days=6)
    await quiz.command("forget me confirm", by="alice")
    quiz.clock.advance(days=3)  # the answer's own record is past the 7 days' retention
    await quiz.service.retention.prune()

    await quiz.service.handle(answer)  # the same event again

    round_ = await quiz.round()
    assert await quiz.service.store.answers.round_answers(round_.id) == []


async def test_an_erased_blind_answer_is_never_posted_at_the_reveal(quiz: QuizHarness) -> None:
    await quiz.command("config answers blind")
    await quiz.command("now")
    await quiz.command("answer alice's take", by="alice")
    await quiz.command("answer carol's take", by="carol")

    await quiz.command("forget me confirm", by="alice")
    await quiz.command("reveal")

    titles = quiz.platform.titles(await quiz.thread())
    assert "Carol's answer" in titles and "Alice's answer" not in titles
    bodies = [m.card.body for m in quiz.platform.messages]
    assert "alice's take" not in bodies


async def test_stats_public_stays_a_members_command_and_readiness_an_admins(
    quiz: QuizHarness,
) -> None:
    await quiz.command("now")
    public = await quiz.command("stats public", by="alice")
    readiness = await quiz.command("stats public readiness", by="alice")
    assert public.public
    assert "admin" in readiness.card.plain_text().lower() and not readiness.public
