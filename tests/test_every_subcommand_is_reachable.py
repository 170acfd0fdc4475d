"""Every /quiz subcommand, and every value of every parameter, can be given on every platform.

The invocations are generated from the registry, so a subcommand or a value added there is
checked here without writing a test for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from discord import app_commands

from adapters.console.connector import ConsolePlatform
from adapters.discord.slash_commands import QuizGroup, command_at, discord_command_of
from adapters.slack.inbound import command_from
from bot.features import QUIZ_SUBCOMMANDS, SUBCOMMANDS_BY_NAME, parse_command
from bot.kernel.events import Command, Event
from bot.practice.commands import StartPractice
from bot.quiz_command.grammar import Param, ParamKind, Subcommand, Suggest
from bot.quiz_command.typed import Help
from questions.pack import Difficulty

SAMPLES = {Suggest.TOPICS: "gpu", Suggest.TIMEZONES: "Europe/Berlin"}
SAMPLES_BY_NAME = {
    "spec": "weekdays 09:30",
    "date": "2099-01-15",
    "days": "2099-12-24..2099-12-26",
    "reason": "a typo",
    "item": "s1",
    "day": "fri",
    "time": "16:00",
    "text": "shard the KV cache by head",
    "round": "1",
    "points": "1 3",
    "answer": "#1",
    "score": "3",
    "comment": "clear and complete",
    "card": "7",  # the number of a coach's card
    "value": "backend-team",  # the free-word settings: a group to ping, or to claim
    "period": "2020-01",
}


@dataclass(frozen=True)
class Invocation:
    name: str
    words: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)  # the Discord options

    def __str__(self) -> str:
        return " ".join(["/quiz", self.name, *self.words])


def samples(param: Param) -> list[Any]:
    match param.kind:
        case ParamKind.FLAG:
            return [True]
        case ParamKind.CHOICE:
            return list(param.choices)
        case ParamKind.NUMBER:
            return [f"{param.minimum:g}", f"{param.maximum:g}"]
        case ParamKind.EMOJI:
            return ["🔍"]
        case ParamKind.DURATION:
            return ["90m", "off"]
    if param.suggest is not None:
        return [SAMPLES[param.suggest]]
    return [SAMPLES_BY_NAME[param.name]]


def with_needed(subcommand: Subcommand, param: Param, value: Any) -> dict[str, Any]:
    """The option, the option it comes after, and the options it makes required (none
    after a word that stands alone, such as ``off``)."""
    options = {param.name: value}
    for follower in subcommand.params:
        if follower.needs == param.name and follower.required and value != param.alone:
            options[follower.name] = samples(follower)[0]
    if param.needs:
        needed = next(p for p in subcommand.params if p.name == param.needs)
        options = {**with_needed(subcommand, needed, samples(needed)[0]), **options}
    return options


def as_words(subcommand: Subcommand, options: dict[str, Any]) -> tuple[str, ...]:
    words: list[str] = []
    for param in subcommand.params:
        if param.name in options:
            value = options[param.name]
            words += [param.name] if value is True else str(value).split()
    return tuple(words)


def invocations() -> Iterator[Invocation]:
    for subcommand in QUIZ_SUBCOMMANDS:
        if not subcommand.settings and not any(
            p.required and not p.needs for p in subcommand.params
        ):
            yield Invocation(subcommand.name, ())  # bare, unless a parameter is required
        for setting in subcommand.settings:
            for value in samples(setting.value):
                options = {"setting": setting.name, "value": value}
                yield Invocation(subcommand.name, (setting.name, value), options)
        for param in subcommand.params:
            for value in samples(param):
                options = with_needed(subcommand, param, value)
                yield Invocation(subcommand.name, as_words(subcommand, options), options)


INVOCATIONS = list(invocations())


def test_every_subcommand_and_setting_is_generated() -> None:
    names = {i.name for i in INVOCATIONS}
    assert names == {c.name for c in QUIZ_SUBCOMMANDS}
    config = [i.words[0] for i in INVOCATIONS if i.name == "config"]
    assert {
        "reveal-emoji",
        "followups",
        "grace",
        "reveal-reactors",
        "answers",
        "difficulty",
    } <= set(config)


@pytest.mark.parametrize("invocation", INVOCATIONS, ids=str)
def test_the_core_grammar_accepts_it(invocation: Invocation) -> None:
    command = parse_command(invocation.name, invocation.words)
    assert invocation.name == "help" or not isinstance(command, Help)


@pytest.mark.parametrize("invocation", INVOCATIONS, ids=str)
def test_slack_passes_it_to_the_core(invocation: Invocation) -> None:
    body = {
        "team_id": "T1",
        "channel_id": "C1",
        "user_id": "U1",
        "trigger_id": "t.1",
        "text": " ".join([invocation.name, *invocation.words]),
    }
    event = command_from(body)
    assert (event.name, event.args) == (invocation.name, invocation.words)


@dataclass
class RecordingService:
    events: list[Event] = field(default_factory=list)

    async def handle(self, event: Event) -> None:
        self.events.append(event)


@pytest.mark.parametrize("invocation", INVOCATIONS, ids=str)
async def test_the_console_passes_it_to_the_core(invocation: Invocation) -> None:
    service = RecordingService()
    session = ConsolePlatform(out=io.StringIO()).session(service.handle)
    await session.handle_line(str(invocation))
    [event] = service.events
    assert isinstance(event, Command)
    assert (event.name, event.args) == (invocation.name, invocation.words)


@pytest.mark.parametrize("invocation", INVOCATIONS, ids=str)
async def test_discord_offers_it_and_passes_it_to_the_core(invocation: Invocation) -> None:
    dispatched: list[tuple[str, tuple[str, ...]]] = []

    async def dispatch(interaction: Any, name: str, words: tuple[str, ...]) -> None:
        dispatched.append((name, words))

    subcommand = SUBCOMMANDS_BY_NAME[invocation.name]
    group = QuizGroup(dispatch, topics=lambda: ["gpu"], name=discord_command_of(subcommand))
    command = command_at(group, subcommand)  # in its group, if it has one: /quiz round grade
    assert isinstance(command, app_commands.Command)
    declared = {p.name: p for p in command.parameters}
    for option, value in invocation.options.items():
        choices = [c.value for c in declared[option].choices]
        assert not choices or value in choices, (option, value, choices)
    await command.callback(cast(Any, None), **invocation.options)  # type: ignore[call-arg]
    [(name, words)] = dispatched  # free text is one argument, as typed: the same command
    assert name == invocation.name
    assert parse_command(name, words) == parse_command(invocation.name, invocation.words)


PRACTICE_WORDS = {  # what a member types -> (topic, difficulty)
    ("gpu", "hard"): ("gpu", "hard"),
    ("hard",): (None, "hard"),
    ("gpu",): ("gpu", None),
    ("gpu", "any"): ("gpu", None),
}


@pytest.mark.parametrize("words", list(PRACTICE_WORDS), ids=" ".join)
async def test_practice_takes_a_topic_and_a_difficulty_on_every_platform(
    words: tuple[str, ...],
) -> None:
    topic, level = PRACTICE_WORDS[words]
    expected = StartPractice(topic, None if level is None else Difficulty(level))
    assert parse_command("practice", words) == expected

    slack = command_from(
        {
            "team_id": "T1",
            "channel_id": "C1",
            "user_id": "U1",
            "trigger_id": "t.1",
            "text": " ".join(["practice", *words]),
        }
    )
    assert parse_command(slack.name, slack.args) == expected

    service = RecordingService()
    session = ConsolePlatform(out=io.StringIO()).session(service.handle)
    await session.handle_line(" ".join(["/quiz", "practice", *words]))
    [event] = service.events
    assert isinstance(event, Command) and parse_command(event.name, event.args) == expected

    dispatched: list[tuple[str, tuple[str, ...]]] = []

    async def dispatch(interaction: Any, name: str, said: tuple[str, ...]) -> None:
        dispatched.append((name, said))

    group = QuizGroup(dispatch, topics=lambda: ["gpu"])
    command = group.get_command("practice")
    assert isinstance(command, app_commands.Command)
    options = {"topic": None if words[0] in PRACTICE_LEVELS else words[0]}
    if words[-1] in PRACTICE_LEVELS:
        options["difficulty"] = words[-1]
    await command.callback(cast(Any, None), **options)  # type: ignore[call-arg]
    [(name, said)] = dispatched
    assert parse_command(name, said) == expected


PRACTICE_LEVELS = ("easy", "medium", "hard", "any")
