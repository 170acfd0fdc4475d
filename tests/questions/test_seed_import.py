"""The seed-format importer: any document of the format, and precise errors for malformed ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from questions.loader import parse_pack
from questions.pack import Correction, FollowUp
from questions.seed_import import (
    SeedFormatError,
    pack_from_seed,
    pack_to_yaml,
    parse_seed,
    question_ids,
    slugify,
)

SEED = Path(__file__).resolve().parents[1] / "data" / "seed_ai_infra.txt"

SYNTHETIC = """\
Distributed systems drill

As asked

What is a vector clock?

Sample answer outline

A vector of counters, one per node.
Each node increments its own entry.

Compare entry-wise to order events.

Expect these follow-ups

• How do vector clocks grow with the cluster?
• What replaces them at scale?
• Name one system that uses them.

As asked

Why is consensus hard?
Think of FLP.

Sample answer outline

FLP impossibility: no deterministic protocol guarantees termination with one faulty process.
"""


def test_the_seed_file_gives_ten_questions_with_their_texts_verbatim() -> None:
    source = SEED.read_text(encoding="utf-8")
    document = parse_seed(source)
    assert document.title == "AI infrastructure engineer domain knowledge interview questions"
    assert len(document.questions) == 10
    source_lines = set(source.splitlines())
    for question in document.questions:
        assert question.question in source_lines
        assert question.outline in source_lines
        assert len(question.follow_ups) == 1
        assert f"• {question.follow_ups[0]}" in source_lines
    assert document.questions[0].question.startswith("What is the time and memory complexity")
    assert document.questions[9].follow_ups[0].endswith("which does NCCL primarily use?")
    assert [q.line for q in document.questions[:2]] == [3, 15]


def test_several_follow_ups_none_and_multi_paragraph_texts() -> None:
    first, second = parse_seed(SYNTHETIC).questions
    assert first.question == "What is a vector clock?"
    assert first.outline == (
        "A vector of counters, one per node.\nEach node increments its own entry."
        "\n\nCompare entry-wise to order events."
    )
    assert first.follow_ups == (
        "How do vector clocks grow with the cluster?",
        "What replaces them at scale?",
        "Name one system that uses them.",
    )
    assert second.question == "Why is consensus hard?\nThink of FLP."
    assert second.follow_ups == ()


def test_crlf_extra_blank_lines_bom_and_unicode() -> None:
    text = (
        "\ufeff\r\n\r\nQuestions naïves — 日本語\r\n\r\n\r\nAs asked\r\n\r\n\r\n"
        "Qu'est-ce qu'un café ☕?\r\n\r\n\r\nSample answer outline\r\n"
        "Une boisson.\r\n\r\n\r\n\r\nÜbergrößen: ≥ 2 µs.\r\n"
        "Expect these follow-ups\r\n\r\n•   Et le thé 🍵 ?\r\n\r\n\r\n"
    )
    document = parse_seed(text)
    assert document.title == "Questions naïves — 日本語"
    [question] = document.questions
    assert question.question == "Qu'est-ce qu'un café ☕?"
    assert question.outline == "Une boisson.\n\nÜbergrößen: ≥ 2 µs."
    assert question.follow_ups == ("Et le thé 🍵 ?",)


def test_headers_tolerate_case_and_a_colon_and_an_empty_follow_ups_block() -> None:
    text = "T\nAS ASKED:\nQ?\n  sample answer outline  \nO.\nExpect these follow-ups:\n\n"
    [question] = parse_seed(text).questions
    assert (question.question, question.outline, question.follow_ups) == ("Q?", "O.", ())


def test_a_follow_up_may_continue_on_the_next_lines() -> None:
    text = SYNTHETIC.replace(
        "• What replaces them at scale?", "• What replaces them\nat scale?\n\nThink of CRDTs."
    )
    follow_ups = parse_seed(text).questions[0].follow_ups
    assert follow_ups[1] == "What replaces them\nat scale?\n\nThink of CRDTs."
    assert len(follow_ups) == 3


def test_bullets_inside_an_outline_stay_part_of_the_outline() -> None:
    text = SYNTHETIC.replace("Compare entry-wise", "• Compare entry-wise")
    assert (
        parse_seed(text).questions[0].outline.endswith("\n\n• Compare entry-wise to order events.")
    )


def _error(text: str) -> SeedFormatError:
    with pytest.raises(SeedFormatError) as caught:
        parse_seed(text)
    return caught.value


@pytest.mark.parametrize(
    ("text", "line", "detail"),
    [
        ("", 1, "expected a title line; the document is empty"),
        ("\n\nAs asked\nQ?\n", 3, "expected a title line before 'As asked'"),
        ("Title\n\n", 2, "expected 'As asked' after the title; there are no questions"),
        (
            "Title\nIntro text\nAs asked\nQ?\n",
            2,
            "expected 'As asked' after the title, found text",
        ),
        (
            "Title\nAs asked\n\nSample answer outline\nO.\n",
            4,
            "expected the question text after 'As asked'",
        ),
        (
            "Title\nAs asked\nQ?\n\nAs asked\nQ2?\nSample answer outline\nO.\n",
            5,
            "expected 'Sample answer outline' after the question text, found 'As asked'",
        ),
        (
            "Title\nAs asked\nQ?\nExpect these follow-ups\n• F?\n",
            4,
            "expected 'Sample answer outline' after the question text,"
            " found 'Expect these follow-ups'",
        ),
        (
            "Title\nAs asked\nQ?\n",
            3,
            "expected 'Sample answer outline' after the question text,"
            " found the end of the document",
        ),
        (
            "Title\nAs asked\nQ?\nSample answer outline\n\n\n",
            6,
            "expected the outline text after 'Sample answer outline'",
        ),
        (
            "Title\nAs asked\nQ?\nSample answer outline\nO.\nExpect these follow-ups\nF?\n",
            7,
            "expected a follow-up starting with '•', found text",
        ),
        (
            "Title\nAs asked\nQ?\nSample answer outline\nO.\nExpect these follow-ups\n• F?\n•\n",
            8,
            "expected the follow-up text after '•'",
        ),
        (
            "Title\nAs asked\nQ?\nSample answer outline\nO.\nSample answer outline\nO2.\n",
            6,
            "expected 'Expect these follow-ups' or 'As asked', found 'Sample answer outline'",
        ),
    ],
)
def test_malformed_documents_name_the_line_and_what_was_expected(
    text: str, line: int, detail: str
) -> None:
    error = _error(text)
    assert (error.line, error.detail) == (line, detail)
    assert str(error) == f"line {line}: {detail}"


def test_the_error_line_counts_crlf_lines_once() -> None:
    text = SYNTHETIC.replace("\n", "\r\n").replace("Why is consensus hard?\r\n", "")
    text = text.replace("Think of FLP.\r\n", "")
    error = _error(text)
    assert (error.line, error.detail) == (23, "expected the question text after 'As asked'")


def test_question_ids_are_short_unique_slugs() -> None:
    ids = question_ids(
        [
            "What is the time and memory complexity of vanilla self-attention?",
            "What is the time and memory complexity of vanilla self-attention?",
            "日本語の質問",
            "Ça coûte combien, le café ?",
        ]
    )
    assert ids == [
        "time-memory-complexity-vanilla",
        "time-memory-complexity-vanilla-2",
        "q3",
        "ca-coute-combien-le",
    ]
    assert slugify("000_7308edb5573fd651") == "000-7308edb5573fd651"
    assert slugify("!!!") == ""


def test_a_pack_built_from_a_document_round_trips_through_yaml() -> None:
    document = parse_seed(SYNTHETIC.replace("Think of FLP.", "Think of FLP: 'quoted' #hash"))
    pack = pack_from_seed(document, pack_id="distributed", topic="consensus")
    assert {q.topic for q in pack.questions} == {"consensus"}
    text = pack_to_yaml(pack)
    assert "question: |" in text  # readable block scalars
    assert parse_pack(text, Path("generated.yaml")) == pack


def test_the_seed_file_round_trips_through_yaml() -> None:
    pack = pack_from_seed(parse_seed(SEED.read_text(encoding="utf-8")), pack_id="s", topic="t")
    assert parse_pack(pack_to_yaml(pack), Path("seed.yaml")) == pack


def test_follow_up_notes_and_corrections_round_trip_through_yaml() -> None:
    pack = pack_from_seed(parse_seed(SYNTHETIC), pack_id="distributed", topic="consensus")
    first = pack.questions[0]
    noted = first.model_copy(
        update={
            "follow_ups": (
                FollowUp(
                    ask=first.follow_ups[0].ask, notes="Linear in nodes.\nPer entry: a counter."
                ),
                *first.follow_ups[1:],
            ),
            "corrections": (
                Correction(fact="Vector clocks order events partially.", source="Fidge 1988"),
            ),
        }
    )
    pack = pack.model_copy(update={"questions": (noted, *pack.questions[1:])})
    text = pack_to_yaml(pack)
    assert "      - ask: |-\n          How do vector clocks grow with the cluster?\n" in text
    assert "      - |-\n        What replaces them at scale?\n" in text  # no notes: plain text
    assert parse_pack(text, Path("generated.yaml")) == pack
