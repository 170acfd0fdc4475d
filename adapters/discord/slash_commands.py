"""The ``/quiz`` slash command group, derived from the core's command registry.

Each subcommand of :data:`bot.features.QUIZ_SUBCOMMANDS` becomes a Discord
subcommand with typed options: a flag is a boolean, a choice a fixed list, a free
value a string with autocomplete where the registry suggests values. An invocation
turns its options back into the words of the core grammar
(``/quiz schedule spec:"weekdays 09:30" timezone:Europe/Berlin`` becomes
``Command(name="schedule", args=("weekdays", "09:30", "Europe/Berlin"))``) and
hands them to a dispatcher.

Discord only honours ``default_permissions`` and ``guild_only`` on a top-level
command, not on subcommands, and putting ``manage_guild`` on the whole group
would hide ``/quiz leaderboard`` from members; so the admin subcommands are
checked by the core's inbound chain, which asks the platform's ``is_admin``
(``manage_guild``, known from the interaction).

One command holds at most 25 subcommands and groups (a group 25 subcommands), so the
admins-only subcommands are under a command of their own, ``/quiz-admin``, and the
registry's families of related subcommands are Discord subcommand groups
(``/quiz round grade``): each command keeps room for more.
"""

from __future__ import annotations

import inspect
import zoneinfo
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Literal, cast

import discord
from discord import app_commands

from bot.features import FAMILIES, FAMILY_OF, QUIZ_SUBCOMMANDS
from bot.quiz_command.grammar import Param, ParamKind, Subcommand, Suggest

CommandDispatch = Callable[[discord.Interaction, str, tuple[str, ...]], Awaitable[None]]
TopicSource = Callable[[], Sequence[str]]
Choices = list[app_commands.Choice[str]]
Completer = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices
DESCRIPTION_LIMIT = 100
SETTING, VALUE = "setting", "value"


def words(*values: str | None) -> tuple[str, ...]:
    """The whitespace-separated words of the given option values, in order."""
    return tuple(word for value in values if value for word in value.split())


def complete_last_word(current: str, candidates: Sequence[str]) -> list[app_commands.Choice[str]]:
    """Choices completing the last word of ``current`` (several topics may be typed)."""
    head, _, last = current.rpartition(" ")
    typed = set(head.split())
    matches = [c for c in candidates if c.lower().startswith(last.lower()) and c not in typed]
    prefix = f"{head} " if head else ""
    return [
        app_commands.Choice(name=f"{prefix}{c}"[:100], value=f"{prefix}{c}"[:100])
        for c in sorted(matches)[:AUTOCOMPLETE_LIMIT]
    ]


def invocation_words(subcommand: Subcommand, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The core grammar's words for a slash command's options; a free-text option (an
    answer, a reason) stays one argument, exactly as typed."""
    if subcommand.settings:
        return words(options.get(SETTING), options.get(VALUE))
    said: list[str] = []
    for param in subcommand.params:
        value = options.get(param.name)
        if param.kind is ParamKind.FLAG:
            # a value given that only follows this flag gives the flag too (minutes: timed)
            implied = any(p.needs == param.name and options.get(p.name) for p in subcommand.params)
            said.extend(words(param.name if value or implied else None))
        elif param.kind is ParamKind.TEXT and value is not None and str(value).strip():
            said.append(str(value))
        else:
            said.extend(words(None if value is None else str(value)))
    return tuple(said)


QUIZ_COMMAND = "quiz"
ADMIN_COMMAND = "quiz-admin"
GROUP_LIMIT = 25  # Discord: subcommands and groups under a command, subcommands in a group


def discord_path(subcommand: Subcommand) -> tuple[str, ...]:
    """Where a subcommand is on Discord: an admins-only one under ``/quiz-admin`` (Discord
    then hides it from members too), a member's in its family's group if it has one
    (``("quiz", "round", "grade")``), else right under ``/quiz``."""
    if subcommand.admin:
        return (ADMIN_COMMAND, subcommand.name)
    family = FAMILY_OF.get(subcommand.name)
    if family is None:
        return (QUIZ_COMMAND, subcommand.name)
    return (QUIZ_COMMAND, family.name, subcommand.name)


def discord_command_of(subcommand: Subcommand) -> str:
    """The top-level Discord command a subcommand is under."""
    return discord_path(subcommand)[0]


# how each subcommand is run on Discord, for the help it shows: "/quiz round grade"
COMMAND_PATHS = {c.name: "/" + " ".join(discord_path(c)) for c in QUIZ_SUBCOMMANDS}


def command_at(
    group: app_commands.Group, subcommand: Subcommand
) -> app_commands.Command[Any, ..., Any] | None:
    """The Discord command of ``subcommand`` in its top-level ``group``, if there."""
    found: app_commands.Command[Any, ..., Any] | app_commands.Group | None = group
    for name in discord_path(subcommand)[1:]:
        found = found.get_command(name) if isinstance(found, app_commands.Group) else None
    return found if isinstance(found, app_commands.Command) else None


class QuizGroup(app_commands.Group):
    """``/quiz`` (or ``/quiz-admin``): one Discord subcommand per declared subcommand under
    it (admins checked by the core all the same)."""

    def __init__(
        self, dispatch: CommandDispatch, topics: TopicSource, *, name: str = QUIZ_COMMAND
    ) -> None:
        admins = name == ADMIN_COMMAND
        super().__init__(
            name=name,
            description="Daily interview practice: admins' commands"
            if admins
            else "Daily interview practice question",
            guild_only=True,
            default_permissions=discord.Permissions(manage_guild=True) if admins else None,
        )
        self._dispatch = dispatch
        self._topics = topics
        families: dict[str, app_commands.Group] = {}
        for subcommand in QUIZ_SUBCOMMANDS:
            path = discord_path(subcommand)
            if path[0] != name:
                continue
            under: app_commands.Group = self
            if len(path) == 3:
                under = families.get(path[1]) or self._family(path[1], families)
            if len(under.commands) == GROUP_LIMIT:
                raise ValueError(f"/{under.qualified_name} would have more than 25 subcommands")
            under.add_command(self._command(subcommand))

    def _family(self, name: str, families: dict[str, app_commands.Group]) -> app_commands.Group:
        """The subcommand group of a family of related subcommands (``/quiz round``)."""
        family = next(f for f in FAMILIES if f.name == name)
        if len(self.commands) == GROUP_LIMIT:
            raise ValueError(f"/{self.name} would have more than 25 subcommands and groups")
        group = app_commands.Group(name=name, description=family.summary[:DESCRIPTION_LIMIT])
        self.add_command(group)
        families[name] = group
        return group

    def _command(self, subcommand: Subcommand) -> app_commands.Command[Any, Any, None]:
        dispatch = self._dispatch

        async def invoke(interaction: discord.Interaction, /, **options: Any) -> None:
            said = invocation_words(subcommand, options)
            await dispatch(interaction, subcommand.name, said)

        parameters, descriptions = _options(subcommand)
        invoke.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [_parameter("interaction", discord.Interaction), *parameters]
        )
        invoke.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
        summary = subcommand.summary
        description = f"Admins: {summary}" if subcommand.admin else summary[0].upper() + summary[1:]
        command: app_commands.Command[Any, Any, None] = app_commands.Command(
            name=subcommand.name, description=description[:DESCRIPTION_LIMIT], callback=invoke
        )
        for param in subcommand.params:
            if param.suggest is not None:
                command.autocomplete(param.name)(self._completer(param))
        if subcommand.settings:
            command.autocomplete(VALUE)(_setting_values(subcommand))
        return command

    def _completer(self, param: Param) -> Completer:
        several = param.kind is ParamKind.WORDS

        async def complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if param.suggest is Suggest.TIMEZONES:
                return _timezones(current)
            typed = current if several else current.strip()
            return complete_last_word(typed, list(self._topics()))

        return complete


def _options(subcommand: Subcommand) -> tuple[list[inspect.Parameter], dict[str, str]]:
    if subcommand.settings:
        names = tuple(s.name for s in subcommand.settings)
        parameters = [  # neither given: every setting is shown; a setting alone: that one
            _parameter(SETTING, _literal(names) | None, default=None),
            _parameter(VALUE, str | None, default=None),
        ]
        described = ", ".join(f"{s.name}: {s.value.description}" for s in subcommand.settings)
        return parameters, {SETTING: "Which setting", VALUE: described[:DESCRIPTION_LIMIT]}
    parameters = []
    for param in subcommand.params:
        if param.kind is ParamKind.FLAG:
            parameters.append(_parameter(param.name, bool, default=False))
        elif param.kind is ParamKind.CHOICE:
            parameters.append(_parameter(param.name, _literal(param.choices) | None, default=None))
        else:
            parameters.append(_parameter(param.name, str | None, default=None))
    return parameters, {p.name: p.description[:DESCRIPTION_LIMIT] for p in subcommand.params}


def _parameter(name: str, annotation: Any, **default: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation, **default
    )


def _literal(values: tuple[str, ...]) -> Any:
    return cast(Any, Literal)[values]


def _timezones(current: str) -> list[app_commands.Choice[str]]:
    needle = current.lower()
    names = sorted(z for z in zoneinfo.available_timezones() if needle in z.lower())
    return [app_commands.Choice(name=z, value=z) for z in names[:AUTOCOMPLETE_LIMIT]]


def _setting_values(subcommand: Subcommand) -> Completer:
    """The allowed values of the setting chosen so far, for a setting that has a list."""

    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        chosen = getattr(interaction.namespace, SETTING, None)
        setting = next((s for s in subcommand.settings if s.name == chosen), None)
        choices = setting.value.choices if setting else ()
        return [
            app_commands.Choice(name=c, value=c)
            for c in choices
            if c.startswith(current.strip().lower())
        ][:AUTOCOMPLETE_LIMIT]

    return complete
