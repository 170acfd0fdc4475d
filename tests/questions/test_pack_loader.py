"""The loader: safe YAML only, and every problem reported as file:line: field: message."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from questions.catalog import Catalog
from questions.loader import (
    PackError,
    PackProblem,
    bundled_packs_dir,
    load_catalog,
    load_pack,
    load_packs,
)

GOOD = """\
id: demo
title: Demo pack
version: 2
questions:
  - id: first
    topic: gpu
    question: |
      Why GPUs?

      Second paragraph.
    outline: Parallel throughput.
    follow_ups: []
  - id: second
    topic: memory
    difficulty: easy
    tags: [adam]
    question: How big is Adam state?
    outline: Three fp32 copies.
    follow_ups:
      - And AdamW?
"""


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _problems(path: Path) -> list[tuple[int, str, str]]:
    with pytest.raises(PackError) as caught:
        load_pack(path)
    return [(p.line, p.field, p.message) for p in caught.value.problems]


def test_a_good_pack_loads(tmp_path: Path) -> None:
    pack = load_pack(_write(tmp_path, "demo.yaml", GOOD))
    assert (pack.id, pack.version, [q.id for q in pack.questions]) == (
        "demo",
        2,
        ["first", "second"],
    )
    assert pack.questions[0].question == "Why GPUs?\n\nSecond paragraph."
    assert pack.questions[1].follow_up_asks == ("And AdamW?",)
    assert pack.questions[1].follow_ups[0].notes is None


def test_problem_prints_as_file_line_field_message(tmp_path: Path) -> None:
    problem = PackProblem(tmp_path / "p.yaml", 7, "questions[1].outline", "must not be empty")
    assert str(problem) == f"{tmp_path / 'p.yaml'}:7: questions[1].outline: must not be empty"


def test_each_problem_names_its_line_and_field(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "bad.yaml",
        """\
        id: demo
        title: Demo
        questions:
          - id: one
            topic: gpu
            question: "  "
            outline: fine
          - id: Bad_Id
            topic: gpu
            difficulty: extreme
            question: q
            answer: nope
          - id: one
            topic: gpu
            question: q
            outline: o
            follow_ups: ["", ok]
        """,
    )
    assert _problems(path) == [
        (6, "questions[0].question", "must not be empty"),
        (
            8,
            "questions[1].id",
            "must be lowercase letters and digits separated by single '-', got 'Bad_Id'",
        ),
        (8, "questions[1].outline", "required field is missing"),
        (10, "questions[1].difficulty", "must be one of 'easy', 'medium' or 'hard', got 'extreme'"),
        (
            12,
            "questions[1].answer",
            "unknown field (allowed: id, topic, difficulty, tags, question, outline, follow_ups,"
            " key_points, corrections)",
        ),
        (
            13,
            "questions[2].id",
            "duplicate question id 'one' (first used by questions[0] at line 4)",
        ),
        (17, "questions[2].follow_ups[0]", "must not be empty"),
    ]


def test_a_duplicate_id_alone_is_reported_at_the_second_occurrence(tmp_path: Path) -> None:
    text = GOOD.replace("id: second", "id: first")
    message = "duplicate question id 'first' (first used by questions[0] at line 5)"
    assert _problems(_write(tmp_path, "dup.yaml", text)) == [(13, "questions[1].id", message)]


def test_pack_level_problems(tmp_path: Path) -> None:
    path = _write(tmp_path, "p.yaml", "id: demo\ntitle: ''\nowner: me\nversion: 0\nquestions: []\n")
    assert _problems(path) == [
        (2, "title", "must not be empty"),
        (3, "owner", "unknown field (allowed: id, title, description, version, questions)"),
        (4, "version", "must be at least 1, got 0"),
        (5, "questions", "the pack must contain at least one question"),
    ]


def test_a_missing_field_is_reported_at_the_mapping_that_lacks_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "p.yaml", "\n\nid: demo\nquestions:\n  - id: a\n    topic: t\n")
    assert _problems(path) == [
        (3, "title", "required field is missing"),
        (5, "questions[0].question", "required field is missing"),
        (5, "questions[0].outline", "required field is missing"),
    ]


def test_a_yaml_syntax_error_has_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "p.yaml", "id: demo\ntitle: [unclosed\nversion: 1\n")
    [(line, field, message)] = _problems(path)
    assert (field, message.startswith("invalid YAML")) == ("(yaml)", True)
    assert line in (3, 4)


def test_a_duplicate_key_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "p.yaml", GOOD.replace("version: 2\n", "version: 2\nversion: 3\n"))
    assert _problems(path) == [(4, "version", "duplicate key (first at line 3)")]


def test_python_tags_are_refused_not_executed(tmp_path: Path) -> None:
    path = _write(tmp_path, "p.yaml", "id: !!python/object/apply:os.system ['echo pwned']\n")
    [(line, field, message)] = _problems(path)
    assert (line, field) == (1, "(yaml)")
    assert "python/object/apply" in message


SPECIFIC_MESSAGES = [
    ("", (1, "(pack)", "the file is empty")),
    ("- a list\n", (1, "(pack)", "expected a mapping with id, title, version and questions")),
    (
        GOOD.replace("id: first", "id: 2024"),
        (5, "questions[0].id", "must be text, got int 2024 (quote it)"),
    ),
    (
        GOOD.replace("follow_ups: []", "follow_ups: one"),
        (12, "questions[0].follow_ups", "must be a list, got text 'one'"),
    ),
    (
        GOOD.replace("question: How big is Adam state?", "question:"),
        (17, "questions[1].question", "must not be empty"),
    ),
]


@pytest.mark.parametrize(("text", "expected"), SPECIFIC_MESSAGES)
def test_specific_messages(tmp_path: Path, text: str, expected: tuple[int, str, str]) -> None:
    assert _problems(_write(tmp_path, "p.yaml", text)) == [expected]


def test_unreadable_files_are_problems_too(tmp_path: Path) -> None:
    (tmp_path / "latin1.yaml").write_bytes("id: x\ntitle: caf\xe9\n".encode("latin-1"))
    assert _problems(tmp_path / "latin1.yaml")[0][:2] == (2, "(file)")  # the byte's line
    assert _problems(tmp_path / "missing.yaml")[0][:2] == (0, "(file)")


def test_load_packs_reads_directories_and_collects_all_problems(tmp_path: Path) -> None:
    packs_dir = tmp_path / "packs"
    packs_dir.mkdir()
    _write(packs_dir, "a.yaml", GOOD)
    _write(packs_dir, "b.yml", GOOD.replace("id: demo", "id: other"))
    _write(packs_dir, "notes.txt", "not a pack")
    assert [p.id for p in load_packs([packs_dir])] == ["demo", "other"]

    _write(packs_dir, "c.yaml", GOOD)  # same pack id as a.yaml
    _write(packs_dir, "d.yaml", "id: broken\n")
    with pytest.raises(PackError) as caught:
        load_packs([packs_dir, tmp_path / "nowhere"])
    rendered = [str(p) for p in caught.value.problems]
    assert (
        f"{packs_dir / 'c.yaml'}:1: id: pack id 'demo' is already used by {packs_dir / 'a.yaml'}"
        in rendered
    )
    assert f"{packs_dir / 'd.yaml'}:1: title: required field is missing" in rendered
    assert f"{tmp_path / 'nowhere'}:0: (file): no such file or directory" in rendered


def test_a_file_listed_twice_is_loaded_once(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.yaml", GOOD)
    assert len(load_packs([path, tmp_path])) == 1


def test_an_empty_directory_is_reported(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=re.escape("no *.yaml or *.yml files")):
        load_packs([tmp_path])


def test_catalog_holds_bundled_and_extra_packs(tmp_path: Path) -> None:
    _write(tmp_path, "demo.yaml", GOOD)
    catalog = load_catalog([tmp_path])
    assert isinstance(catalog, Catalog)
    assert {p.id for p in catalog.packs} == {"ai-infra", "demo"}
    entry = catalog.get("demo", "second")
    assert entry is not None and entry.key.topic == "memory"
    assert bundled_packs_dir().name == "packs" and (bundled_packs_dir() / "ai-infra.yaml").is_file()


def test_a_short_key_point_list_names_its_line_and_the_rule(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "kp.yaml",
        """\
        id: demo
        title: Demo
        questions:
          - id: one
            topic: gpu
            question: q
            outline: o
            key_points: [only, two]
        """,
    )
    assert _problems(path) == [(8, "questions[0].key_points", "give 3 to 7 key points, not 2")]


NOTED = """\
id: demo
title: Demo
questions:
  - id: one
    topic: gpu
    question: q
    outline: o
    follow_ups:
      - Plain text, as packs always wrote them?
      - ask: With notes?
        notes: |-
          First point a good answer makes.
          Second point.
    corrections:
      - fact: The right figure.
        source: The vendor's datasheet.
"""


def test_follow_ups_with_notes_and_corrections_load(tmp_path: Path) -> None:
    [question] = load_pack(_write(tmp_path, "noted.yaml", NOTED)).questions
    assert question.follow_up_asks == ("Plain text, as packs always wrote them?", "With notes?")
    assert question.follow_ups[1].note_lines == (
        "First point a good answer makes.",
        "Second point.",
    )
    assert [(c.fact, c.source) for c in question.corrections] == [
        ("The right figure.", "The vendor's datasheet.")
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "        notes: |-\n          First point a good answer makes.\n"
            "          Second point.\n",
            "        notes: ''\n",
            [(11, "questions[0].follow_ups[1].notes", "must not be empty")],
        ),
        (
            "      - ask: With notes?\n",
            "      - asked: With notes?\n",
            [
                (10, "questions[0].follow_ups[1].ask", "required field is missing"),
                (10, "questions[0].follow_ups[1].asked", "unknown field (allowed: ask, notes)"),
            ],
        ),
        (
            "      - ask: With notes?\n",
            "      - ask: ''\n",
            [(10, "questions[0].follow_ups[1].ask", "must not be empty")],
        ),
        (
            "      - Plain text, as packs always wrote them?\n",
            "      - [a, list]\n",
            [
                (
                    9,
                    "questions[0].follow_ups[0]",
                    "must be text or a mapping with the fields ask, notes, got a list",
                )
            ],
        ),
        (
            "        source: The vendor's datasheet.\n",
            "",
            [(15, "questions[0].corrections[0].source", "required field is missing")],
        ),
        (
            "        source: The vendor's datasheet.\n",
            "        source: The vendor's datasheet.\n        page: 3\n",
            [(17, "questions[0].corrections[0].page", "unknown field (allowed: fact, source)")],
        ),
    ],
)
def test_a_malformed_follow_up_or_correction_names_its_line_and_field(
    tmp_path: Path, old: str, new: str, expected: list[tuple[int, str, str]]
) -> None:
    assert old in NOTED
    assert _problems(_write(tmp_path, "p.yaml", NOTED.replace(old, new))) == expected
