"""The settings ``/quiz config`` shows and changes: each one's name, its value's form and
limits, the request it builds, how its value is read and shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.channels.setting_requests import (
    SetAnswerMode,
    SetCoach,
    SetDifficulty,
    SetFollowUps,
    SetGrace,
    SetLastCall,
    SetPing,
    SetRevealAfter,
    SetRevealEmoji,
    SetRevealReactors,
    SetReviewsNamed,
    SetSeasonRole,
    SetSeasons,
)
from bot.channels.setting_rules import (
    ANY_DIFFICULTY,
    MAX_GRACE_HOURS,
    MAX_LAST_CALL_MINUTES,
    MAX_REVEAL_AFTER_MINUTES,
    MAX_REVEAL_REACTORS,
    OFF,
)
from bot.channels.topics import NEW_TOPICS
from bot.kernel.durations import show_minutes
from bot.kernel.models import AnswerMode, ChannelSettings, FollowUpPolicy, SeasonLength
from bot.quiz_command.grammar import (
    Param,
    ParamKind,
    Setting,
)
from bot.quiz_command.typed import QuizCommand
from questions.pack import Difficulty


def _shown_minutes(minutes: int | None) -> str:
    return OFF if minutes is None else show_minutes(minutes)


def _duration_setting(
    name: str,
    description: str,
    maximum: int,
    invalid: str,
    build: Callable[[int | None], QuizCommand],
    read: Callable[[ChannelSettings], int | None],
) -> Setting[Any]:
    """A setting of whole minutes from 1 to ``maximum``, or off (None)."""
    return Setting(
        name,
        Param(
            "value",
            ParamKind.DURATION,
            description,
            metavar="DURATION|off",
            minimum=1,
            maximum=maximum,
            alone=OFF,
            invalid=invalid,
        ),
        lambda minutes: build(None if minutes == 0 else minutes),
        read,
        _shown_minutes,
    )


CHANNEL_SETTINGS: tuple[Setting[Any], ...] = (
    Setting(
        "reveal-emoji",
        Param(
            "value",
            ParamKind.EMOJI,
            "an emoji",
            metavar="EMOJI",
            invalid="{value} is not an emoji.",
        ),
        lambda emoji: SetRevealEmoji(emoji=emoji),
        lambda channel: channel.reveal_emoji,
    ),
    Setting(
        "followups",
        Param(
            "value",
            ParamKind.CHOICE,
            "when follow-ups are posted",
            metavar="POLICY",  # the help's summary lists the policies
            choices=tuple(p.value for p in FollowUpPolicy),
            invalid="Unknown follow-up policy {value}.",
        ),
        lambda policy: SetFollowUps(policy=FollowUpPolicy(policy)),
        lambda channel: channel.followup_policy.value,
    ),
    Setting(
        "grace",
        Param(
            "value",
            ParamKind.NUMBER,
            "hours",
            metavar="HOURS",
            maximum=MAX_GRACE_HOURS,
            invalid=f"Grace must be a number of hours from 0 to {MAX_GRACE_HOURS}.",
        ),
        lambda hours: SetGrace(hours=hours),
        lambda channel: channel.grace_hours,
        lambda hours: f"{hours:g} h",
    ),
    Setting(
        "reveal-reactors",
        Param(
            "value",
            ParamKind.NUMBER,
            "members",
            metavar="N",
            minimum=1,
            maximum=MAX_REVEAL_REACTORS,
            integer=True,
            invalid=f"Reveal reactors must be from 1 to {MAX_REVEAL_REACTORS}.",
        ),
        lambda count: SetRevealReactors(count=count),
        lambda channel: channel.reveal_min_reactors,
    ),
    Setting(
        "answers",
        Param(
            "value",
            ParamKind.CHOICE,
            "where members answer: in the thread, or blind until the reveal",
            choices=tuple(m.value for m in AnswerMode),
            invalid="Unknown answer mode {value}: give thread or blind.",
        ),
        lambda mode: SetAnswerMode(mode=AnswerMode(mode)),
        lambda channel: channel.answer_mode.value,
    ),
    Setting(
        "difficulty",
        Param(
            "value",
            ParamKind.CHOICE,
            "only questions of this difficulty, or any",
            choices=(*(d.value for d in Difficulty), ANY_DIFFICULTY),
            invalid="Unknown difficulty {value}: give easy, medium, hard or any.",
        ),
        lambda level: SetDifficulty(None if level == ANY_DIFFICULTY else Difficulty(level)),
        lambda channel: ANY_DIFFICULTY if channel.difficulty is None else channel.difficulty.value,
    ),
    _duration_setting(
        "reveal-after",
        "post the outline this long after the question if nobody revealed it, or off",
        MAX_REVEAL_AFTER_MINUTES,
        "Give reveal-after as a duration from 1m to 168h (such as 4h or 90m), or off; not {value}.",
        SetRevealAfter,
        lambda channel: channel.reveal_after_minutes,
    ),
    _duration_setting(
        "last-call",
        "remind members with notices on who have not answered, this long before the"
        " outline, or off",
        MAX_LAST_CALL_MINUTES,
        "Give last-call as a duration from 1m to 24h (such as 1h), or off; not {value}.",
        SetLastCall,
        lambda channel: channel.last_call_minutes,
    ),
    Setting(
        "ping",
        Param(
            "value",
            ParamKind.WORD,
            "a role or user group each question mentions, or off",
            metavar="ROLE|off",
        ),
        lambda word: SetPing(str(word)),
        lambda channel: channel.ping,
        lambda group: OFF if group is None else f"@{group}",
    ),
    Setting(
        "reviews",
        Param(
            "value",
            ParamKind.CHOICE,
            "whether an answer's author is told who reviewed it",
            choices=("anonymous", "named"),
            invalid="Give reviews as anonymous or named, not {value}.",
        ),
        lambda mode: SetReviewsNamed(mode == "named"),
        lambda channel: "named" if channel.reviews_named else "anonymous",
    ),
    Setting(
        "coach",
        Param(
            "value",
            ParamKind.CHOICE,
            "whether the answer coach reads this channel's answers (the operator's model)",
            choices=("on", "off"),
            invalid="Give coach as on or off, not {value}.",
        ),
        lambda state: SetCoach(state == "on"),
        lambda channel: "on" if channel.coach else "off",
    ),
    Setting(
        "seasons",
        Param(
            "value",
            ParamKind.CHOICE,
            "how long the channel's seasons are (champions posted at each turn), or off",
            choices=tuple(length.value for length in SeasonLength),
            invalid="Give seasons as monthly, quarterly or off, not {value}.",
        ),
        lambda length: SetSeasons(SeasonLength(length)),
        lambda channel: channel.seasons.value,
    ),
    Setting(
        "season-role",
        Param(
            "value",
            ParamKind.WORD,
            "a role or user group the season's champions are told to claim, or off",
            metavar="ROLE|off",
        ),
        lambda word: SetSeasonRole(str(word)),
        lambda channel: channel.season_role,
        lambda group: OFF if group is None else f"@{group}",
    ),
    NEW_TOPICS,
)
