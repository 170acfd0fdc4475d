"""The example under every refused command is one that works: its dates are ahead of the
day it is shown (an example dated once would be refused as past within weeks) and the
topics and difficulties it names have questions in the bundled pack."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from bot.features import QUIZ_SUBCOMMANDS, find_subcommand, parse_command
from bot.practice.commands import StartPractice
from bot.quiz_command.grammar import Subcommand
from questions.loader import load_catalog

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DAYS = (date(2026, 12, 2), date(2027, 2, 28), date(2031, 7, 15))


@pytest.mark.parametrize("subcommand", QUIZ_SUBCOMMANDS, ids=lambda s: s.name)
@pytest.mark.parametrize("today", DAYS, ids=str)
def test_every_example_parses_and_its_dates_are_ahead_within_a_year(
    subcommand: Subcommand, today: date
) -> None:
    example = subcommand.example_on(today)
    name, *words = example.split()[1:]
    assert name == subcommand.name
    parse_command(name, words, " ".join(words))  # raises CommandError if it does not parse
    for text in ISO_DATE.findall(example):
        assert today < date.fromisoformat(text) <= today + timedelta(days=365), example


def test_a_refusal_shows_the_example_dated_from_the_day_it_is_shown() -> None:
    goal = find_subcommand("goal")
    assert goal is not None
    shown = str(goal.problem("Not a date."))
    dates = [date.fromisoformat(d) for d in ISO_DATE.findall(shown)]
    assert dates and all(d > date.today() for d in dates), shown


def test_the_practice_example_has_a_question_in_the_bundled_pack() -> None:
    practice = find_subcommand("practice")
    assert practice is not None
    words = practice.example.split()[2:]
    command = parse_command("practice", words, " ".join(words))
    assert isinstance(command, StartPractice) and command.topic and command.difficulty
    questions = [e.question for e in load_catalog().entries]
    assert any(
        q.topic == command.topic and q.difficulty == command.difficulty for q in questions
    ), f"no {command.difficulty} question of {command.topic} in the bundled pack"


@pytest.mark.parametrize(
    ("name", "skip"), [("now", 0), ("pair", 1), ("topics", 1), ("practice", 2)]
)
def test_the_topics_an_example_names_are_bundled_topics(name: str, skip: int) -> None:
    subcommand = find_subcommand(name)
    assert subcommand is not None
    words = subcommand.example.split()[2 + skip :]
    topics = set(load_catalog().topics())
    named = [w for w in words if w not in {"easy", "medium", "hard"}]
    assert named and set(named) <= topics, subcommand.example
