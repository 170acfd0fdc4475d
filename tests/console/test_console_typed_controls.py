"""The console has no buttons: its cards name the typed control instead (``:react 💡``,
``/quiz grade ...``), where Slack and Discord cards name their buttons."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from adapters.console.render import render_card
from bot.kernel.render import Card
from bot.rounds.cards import follow_ups_card, outline_card
from questions.loader import bundled_packs_dir, load_packs
from tests.console.test_console import run_console

# a round in the thread, one answered blind, and a practice session in the direct messages
SCRIPT = (
    "/quiz now\n:as alice\nMy answer\n/quiz grade good\n:react 💡\n"
    ":as you admin\n/quiz config answers blind\n/quiz now\n:as bob\nthread reply\n"
    "/quiz practice\n:dm\nhello\nmy answer\nmy follow-up answer\nmore\nwhat now\n"
    "/quiz grade good\n"
)


PRESS_OR_BUTTON = re.compile(r"(?i)[^.]*\b(?:press|button)[^.]*")


def folded(text: str) -> str:
    return " ".join(text.split())


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value, *value.splitlines()]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    return []


def hyphen_breaks_joined(text: str) -> str:
    """``text`` folded, with "open- sourced" read as "open-sourced": the console wraps a
    long line after a hyphen as well as at a space."""
    return re.sub(r"(?<=\w-) ", "", folded(text))


@functools.cache
def question_pieces() -> tuple[str, ...]:
    """The bundled questions' texts and their lines, longest first, as
    :func:`hyphen_breaks_joined` reads them."""
    questions = [
        q.model_dump() for pack in load_packs([bundled_packs_dir()]) for q in pack.questions
    ]
    pieces = {hyphen_breaks_joined(s) for s in strings_in(questions)}
    return tuple(sorted((p for p in pieces if len(p) > 20), key=len, reverse=True))


def without_the_questions(text: str) -> str:
    """The console's own words: the bundled questions' texts taken out (the unseeded
    console asks any of them, and "Press et al." is an author, not a control)."""
    text = hyphen_breaks_joined(text)
    for piece in question_pieces():
        text = text.replace(piece, "")
    return text


def test_no_question_reads_as_a_button_however_the_console_wraps_it() -> None:
    """Whichever question the console asks, its words are taken out. The next test's
    check failed now and then: when the question asked had "register pressure" or
    "back-pressure" in a line the console wrapped after a hyphen ("open-" / "sourced")."""
    left: dict[str, list[str]] = {}
    for pack in load_packs([bundled_packs_dir()]):
        for question in pack.questions:
            cards = [
                Card("Question", body=question.question),
                follow_ups_card(question),
                outline_card(question, round_id=1),
            ]
            printed = folded(" ".join(line for card in cards for line in render_card(card)))
            found = PRESS_OR_BUTTON.findall(without_the_questions(printed))
            if found:
                left[question.id] = found
    assert left == {}


def test_console_cards_name_typed_controls_not_buttons(tmp_path: Path) -> None:
    result = run_console(SCRIPT, tmp_path / "q.db")
    assert result.returncode == 0, result.stderr
    text = folded(result.stdout)  # lines wrapped anywhere read as one

    assert PRESS_OR_BUTTON.findall(without_the_questions(text)) == []
    assert "React 💡 (`:react 💡`) to see the sample answer outline." in text
    assert "react 💡 on the question (`:react 💡`) and grade" in text
    assert "Grade your answer against the key points: `/quiz grade missed|partly" in text
    assert "privately with `/quiz answer TEXT` to the questions posted from now on" in text
    assert "Answer blind: type `/quiz answer TEXT` (only you see it" in text
    assert "To keep an answer private until the reveal, type `/quiz answer TEXT`." in text
    assert "Grade your answers with `/quiz grade missed|partly|good|nailed`." in text
    assert "Next question: `/quiz practice` right here." in text
