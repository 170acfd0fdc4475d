"""The cache key: the same answer (case and whitespace aside) to the same question, key points,
model and prompt version shares one; anything else does not."""

from __future__ import annotations

import pytest

from bot.coach import cache_key
from bot.coach.cache_key import coach_cache_key

QUESTION = "Why does the KV cache grow?"
POINTS = ("One entry per token per layer", "Memory grows with batch and context")
ANSWER = "Every new token adds keys and values at every layer."


def key(
    question: str = QUESTION,
    points: tuple[str, ...] = POINTS,
    answer: str = ANSWER,
    model: str = "m1",
) -> str:
    return coach_cache_key(question, points, answer, model=model)


def test_case_and_whitespace_do_not_change_the_key() -> None:
    assert key(answer="  every NEW token adds keys and values\n\nat every layer. ") == key()
    assert len(key()) == 64 and int(key(), 16) >= 0


@pytest.mark.parametrize(
    "changed",
    [
        {"answer": "Every new token adds keys."},
        {"model": "m2"},
        {"points": (*POINTS[:1], "Memory grows with context")},
        {"points": tuple(reversed(POINTS))},
        {"question": "Why does the KV cache shrink?"},
    ],
)
def test_another_answer_model_or_checklist_is_another_key(changed: dict[str, object]) -> None:
    assert key(**changed) != key()  # type: ignore[arg-type]


def test_a_new_prompt_version_is_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = key()
    monkeypatch.setattr(cache_key, "PROMPT_VERSION", "next")
    assert key() != before
