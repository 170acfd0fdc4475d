"""The promise, over many replies: whatever a model proposes (any point, any passage of the
answer, cut anywhere, or text from elsewhere), every tick that stands names a key point once,
quotes the answer, shares a word with its point and says more than the checklist; every other
tick is accounted for. Fixed examples (derandomised): the same on every run."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.coach.verdict import ProposedTick
from bot.coach.verification import MIN_NEW_WORDS, verify
from bot.coach.wording import content_words, normalised
from tests.core.coach.serving_question import ANSWER, KEY_POINTS, QUESTION

PROPERTIES = settings(derandomize=True, database=None, max_examples=100, deadline=None)
GIVEN_WORDS = content_words(QUESTION).union(*(content_words(p) for p in KEY_POINTS))


@st.composite
def passages(draw: st.DrawFn, text: str) -> str:
    """A slice of ``text``, cut anywhere."""
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 120)))
    return text[start:end]


def quotes(answer: str) -> st.SearchStrategy[str]:
    return st.one_of(
        passages(answer),
        passages(answer).map(str.upper),
        st.sampled_from(KEY_POINTS),
        st.sampled_from(answer.split(". ")),
        st.text(max_size=60),
    )


def proposals(answer: str) -> st.SearchStrategy[list[ProposedTick]]:
    tick = st.builds(ProposedTick, st.integers(-1, len(KEY_POINTS) + 1), quotes(answer))
    return st.lists(tick, max_size=12)


def assert_the_promise_holds(proposed: list[ProposedTick], answer: str) -> None:
    verification = verify(proposed, question=QUESTION, key_points=KEY_POINTS, answer=answer)
    assert len(verification.ticks) + len(verification.dropped) == len(proposed)
    points = [tick.point for tick in verification.ticks]
    assert points == sorted(set(points))
    assert all(1 <= point <= len(KEY_POINTS) for point in points)
    for tick in verification.ticks:
        words = content_words(tick.quote)
        assert tick.quote in unicodedata.normalize("NFC", answer)  # the answer's own words
        assert normalised(tick.quote) in normalised(answer)
        assert words & content_words(KEY_POINTS[tick.point - 1])
        assert len(words - GIVEN_WORDS) >= MIN_NEW_WORDS
    assert (
        verification.grade
        == verify(proposed, question=QUESTION, key_points=KEY_POINTS, answer=answer).grade
    )  # the same reply, the same ticks


@PROPERTIES
@given(proposals(ANSWER))
def test_what_stands_of_any_reply_to_a_real_answer_keeps_the_promise(
    proposed: list[ProposedTick],
) -> None:
    assert_the_promise_holds(proposed, ANSWER)


@PROPERTIES
@given(st.data(), st.text(min_size=1, max_size=300))
def test_what_stands_of_any_reply_to_any_answer_keeps_the_promise(
    data: st.DataObject, answer: str
) -> None:
    assert_the_promise_holds(data.draw(proposals(answer)), answer)


@PROPERTIES
@given(st.data())
def test_nothing_stands_for_an_answer_that_says_nothing(data: st.DataObject) -> None:
    answer = "No idea, sorry."
    proposed = data.draw(proposals(ANSWER))  # quotes of another answer, or of the checklist
    verification = verify(proposed, question=QUESTION, key_points=KEY_POINTS, answer=answer)
    assert verification.ticks == ()
