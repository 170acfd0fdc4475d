"""The pack model refuses each kind of bad pack with its own error; the schema is current."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from questions.pack import Correction, Difficulty, FollowUp, Pack, Question
from questions.schema import SCHEMA_PATH, main, pack_json_schema, render_schema


def _question(**changes: Any) -> dict[str, Any]:
    question: dict[str, Any] = {
        "id": "attention-complexity",
        "topic": "attention",
        "question": "What is the complexity of self-attention?",
        "outline": "O(N^2 * D) time, O(N^2) memory.",
        "follow_ups": ["Does FlashAttention change it?"],
    }
    question.update(changes)
    return question


WARM_UP = _question(id="warm-up", question="Why GPUs?", outline="Parallel throughput.")


def _pack(questions: list[dict[str, Any]] | None = None, **changes: Any) -> dict[str, Any]:
    """A pack whose first question is valid, then ``questions`` (default: one valid question).

    The valid first question keeps pydantic from also reporting "no questions" when
    the question under test is refused.
    """
    pack: dict[str, Any] = {"id": "ai-infra", "title": "AI infra", "version": 1}
    pack["questions"] = [WARM_UP, *([_question()] if questions is None else questions)]
    pack.update(changes)
    return pack


def _single_error(data: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(ValidationError) as caught:
        Pack.model_validate(data)
    errors = caught.value.errors()
    assert len(errors) == 1, errors
    return dict(errors[0])


def test_a_valid_pack_loads_with_defaults() -> None:
    pack = Pack.model_validate(_pack([_question(follow_ups=[], difficulty="hard", tags=["gpu"])]))
    question = pack.questions[1]
    assert (pack.description, question.follow_ups, question.tags) == (None, (), ("gpu",))
    assert question.difficulty is Difficulty.HARD
    assert pack.topics() == ["attention"]


def test_an_outline_longer_than_any_platform_message_is_legal() -> None:
    outline = "A long outline paragraph. " * 2000  # ~52,000 characters
    pack = Pack.model_validate(_pack([_question(outline=outline)]))
    assert pack.questions[1].outline == outline.strip()


@pytest.mark.parametrize("field", ["question", "outline"])
def test_empty_or_blank_text_is_refused(field: str) -> None:
    error = _single_error(_pack([_question(**{field: "  \n "})]))
    assert (error["type"], error["loc"]) == ("string_too_short", ("questions", 1, field))


def test_an_empty_follow_up_is_refused() -> None:
    error = _single_error(_pack([_question(follow_ups=["fine", ""])]))
    assert (error["type"], error["loc"]) == ("string_too_short", ("questions", 1, "follow_ups", 1))


def test_an_empty_title_is_refused() -> None:
    error = _single_error(_pack(title=""))
    assert (error["type"], error["loc"]) == ("string_too_short", ("title",))


def test_duplicate_question_ids_are_refused() -> None:
    error = _single_error(_pack([_question(), _question(topic="memory")]))
    assert error["loc"] == ("questions",)
    assert "duplicate question id 'attention-complexity'" in error["msg"]


def test_unknown_fields_are_refused_in_pack_and_question() -> None:
    error = _single_error(_pack([_question(answer="x")]))
    assert (error["type"], error["loc"]) == ("extra_forbidden", ("questions", 1, "answer"))
    error = _single_error(_pack(author="me"))
    assert (error["type"], error["loc"]) == ("extra_forbidden", ("author",))


@pytest.mark.parametrize(
    "bad_id", ["Attention", "attention_complexity", "-attention", "a--b", "a b", "", "x" * 65]
)
def test_bad_question_ids_are_refused(bad_id: str) -> None:
    error = _single_error(_pack([_question(id=bad_id)]))
    assert error["loc"] == ("questions", 1, "id")
    assert error["type"] in ("string_pattern_mismatch", "string_too_long")


def test_a_bad_pack_id_or_topic_is_refused() -> None:
    assert _single_error(_pack(id="AI infra"))["loc"] == ("id",)
    assert _single_error(_pack([_question(topic="GPU")]))["loc"] == ("questions", 1, "topic")


def test_a_bad_difficulty_is_refused() -> None:
    error = _single_error(_pack([_question(difficulty="extreme")]))
    assert (error["type"], error["loc"]) == ("enum", ("questions", 1, "difficulty"))


def test_a_pack_without_questions_is_refused() -> None:
    error = _single_error({**_pack(), "questions": []})
    assert (error["type"], error["loc"]) == ("too_short", ("questions",))


def test_a_missing_required_field_is_refused() -> None:
    question = _question()
    del question["outline"]
    error = _single_error(_pack([question]))
    assert (error["type"], error["loc"]) == ("missing", ("questions", 1, "outline"))


def test_the_committed_json_schema_is_what_the_model_generates() -> None:
    committed = SCHEMA_PATH.read_text(encoding="utf-8")
    assert committed == render_schema(), "run `python -m questions.schema` to regenerate it"
    assert json.loads(committed)["additionalProperties"] is False


def test_the_schema_describes_the_question_fields() -> None:
    question = pack_json_schema()["$defs"]["Question"]
    assert question["additionalProperties"] is False
    assert set(question["required"]) == {"id", "topic", "question", "outline"}
    assert question["properties"]["id"]["pattern"] == "^[a-z0-9]+(?:-[a-z0-9]+)*$"


def test_schema_check_reports_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_key_points_are_optional_and_kept_in_order() -> None:
    points = ["O(N^2 * D) time", "O(N^2) memory", "IO vs compute complexity"]
    pack = Pack.model_validate(_pack([_question(key_points=points), _question(id="plain")]))
    assert pack.questions[1].key_points == tuple(points)
    assert pack.questions[2].key_points == ()


@pytest.mark.parametrize("count", [1, 2, 8])
def test_a_key_point_list_outside_three_to_seven_is_refused(count: int) -> None:
    error = _single_error(_pack([_question(key_points=[f"point {i}" for i in range(count)])]))
    assert error["loc"] == ("questions", 1, "key_points")
    assert f"3 to 7 key points, not {count}" in error["msg"]


def test_a_long_key_point_is_refused() -> None:
    error = _single_error(_pack([_question(key_points=["a", "b", "x" * 121])]))
    assert error["loc"] == ("questions", 1, "key_points", 2)


def test_key_points_change_the_content_hash_but_their_absence_does_not() -> None:
    plain = Pack.model_validate(_pack()).questions[1]
    pointed = plain.model_copy(update={"key_points": ("a", "b", "c")})
    before_key_points = hashlib.sha256(
        json.dumps([plain.question, plain.outline, ["Does FlashAttention change it?"]]).encode()
    ).hexdigest()[:16]
    assert plain.content_hash() == before_key_points
    assert pointed.content_hash() != plain.content_hash()


NOTES = "O(N^2 d) FLOPs either way.\nOnly HBM traffic drops."


def test_a_follow_up_is_plain_text_or_an_ask_with_notes() -> None:
    follow_ups = ["Plain, as packs always wrote them?", {"ask": "With notes?", "notes": NOTES}]
    question = Pack.model_validate(_pack([_question(follow_ups=follow_ups)])).questions[1]
    plain, noted = question.follow_ups
    assert (plain.ask, plain.notes, plain.note_lines) == (follow_ups[0], None, ())
    assert (noted.ask, noted.notes) == ("With notes?", NOTES)
    assert noted.note_lines == ("O(N^2 d) FLOPs either way.", "Only HBM traffic drops.")
    assert question.follow_up_asks == (follow_ups[0], "With notes?")


def test_a_follow_up_without_notes_is_written_back_as_plain_text() -> None:
    follow_ups = ["Plain?", {"ask": "Noted?", "notes": NOTES}]
    question = Pack.model_validate(_pack([_question(follow_ups=follow_ups)])).questions[1]
    dumped = question.model_dump(mode="json", exclude_defaults=True)
    assert dumped["follow_ups"] == follow_ups  # what stored questions and exports keep
    assert type(question).model_validate_json(question.model_dump_json()) == question


@pytest.mark.parametrize(
    ("follow_up", "location", "kind"),
    [
        ({"ask": "Why?", "notes": "  "}, ("follow_ups", 0, "notes"), "string_too_short"),
        ({"notes": NOTES}, ("follow_ups", 0, "ask"), "missing"),
        ({"ask": "Why?", "answer": "x"}, ("follow_ups", 0, "answer"), "extra_forbidden"),
        (42, ("follow_ups", 0), "model_type"),
    ],
)
def test_a_malformed_follow_up_is_refused_at_its_field(
    follow_up: object, location: tuple[object, ...], kind: str
) -> None:
    error = _single_error(_pack([_question(follow_ups=[follow_up])]))
    assert (error["type"], error["loc"]) == (kind, ("questions", 1, *location))


def test_a_correction_needs_its_fact_and_its_source() -> None:
    fact = {"fact": "A100 L2 bandwidth is several TB/s.", "source": "NVIDIA A100 whitepaper"}
    question = Pack.model_validate(_pack([_question(corrections=[fact])])).questions[1]
    assert [(c.fact, c.source) for c in question.corrections] == [(fact["fact"], fact["source"])]
    error = _single_error(_pack([_question(corrections=[{"fact": fact["fact"]}])]))
    assert (error["type"], error["loc"]) == (
        "missing",
        ("questions", 1, "corrections", 0, "source"),
    )


def test_notes_and_corrections_leave_the_content_hash_alone_but_an_ask_does_not() -> None:
    plain = Pack.model_validate(_pack()).questions[1]
    noted = Pack.model_validate(
        _pack(
            [
                _question(
                    follow_ups=[{"ask": "Does FlashAttention change it?", "notes": NOTES}],
                    corrections=[{"fact": "FlashAttention memory is O(N).", "source": "Dao 2022"}],
                )
            ]
        )
    ).questions[1]
    assert noted.content_hash() == plain.content_hash()
    reworded = plain.model_copy(update={"follow_ups": noted.follow_ups[:0]})
    assert reworded.content_hash() != plain.content_hash()


def test_the_schema_takes_a_follow_up_as_text_or_as_ask_and_notes() -> None:
    schema = pack_json_schema()
    item = schema["$defs"]["Question"]["properties"]["follow_ups"]["items"]
    assert item["anyOf"] == [{"minLength": 1, "type": "string"}, {"$ref": "#/$defs/FollowUp"}]
    follow_up = schema["$defs"]["FollowUp"]
    assert (follow_up["required"], follow_up["additionalProperties"]) == (["ask"], False)
    assert set(follow_up["properties"]) == {"ask", "notes"}
    correction = schema["$defs"]["Correction"]
    assert (set(correction["required"]), correction["additionalProperties"]) == (
        {"fact", "source"},
        False,
    )


@pytest.mark.parametrize("model", [Pack, Question, FollowUp, Correction], ids=lambda m: m.__name__)
def test_the_schema_and_the_model_name_the_same_fields(model: type[BaseModel]) -> None:
    schema = pack_json_schema()
    described = schema if model is Pack else schema["$defs"][model.__name__]
    assert list(described["properties"]) == list(model.model_fields)
    required = [name for name, field in model.model_fields.items() if field.is_required()]
    assert sorted(described.get("required", [])) == sorted(required)
    assert described["additionalProperties"] is False
