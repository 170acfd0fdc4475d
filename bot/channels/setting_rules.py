"""The rules a channel setting's value keeps: the limits, one reveal emoji that is not the
vote emoji, a schedule in its stored form, a ping that names one group."""

from __future__ import annotations

import re

from bot.kernel.config import QuizConfig
from bot.kernel.emoji import canonical, emoji_count, same_emoji
from bot.kernel.errors import BadArgument
from bot.kernel.models import AnswerMode
from bot.kernel.platform import GroupMentions, Platform
from bot.kernel.quoting import quoted
from bot.scheduling.question_schedule import parse_question_schedule
from bot.scheduling.schedule_spec import ScheduleError, parse_timezone

MAX_GRACE_HOURS = 48
MAX_REVEAL_REACTORS = 50

ANSWER_MODE_NOTES = {
    AnswerMode.THREAD: "Answers: in the question's thread, for everyone to read.",
    AnswerMode.BLIND: (
        "Answers: blind. Members answer privately with `/quiz answer TEXT` or the Answer"
        " button of the questions posted from now on, and every answer is posted in the"
        " thread at the reveal."
    ),
}


OFF = "off"
MAX_REVEAL_AFTER_MINUTES = 7 * 24 * 60
MAX_LAST_CALL_MINUTES = 24 * 60
ANY_DIFFICULTY = "any"


def normalized_schedule(spec: str, timezone: str) -> tuple[str, str]:
    """The schedule and the timezone's canonical name ("europe/berlin" -> "Europe/Berlin")
    as they will be stored; raises ValueError with the right form."""
    try:
        return parse_question_schedule(spec).text, parse_timezone(timezone).key
    except ScheduleError as problem:
        raise ValueError(str(problem)) from problem


def one_emoji(typed: str) -> str:
    """The reveal emoji an admin typed, as the core keeps it (``:bulb:`` is 💡, a skin tone
    left out); refused when it is more than one emoji (none of them would reveal)."""
    if emoji_count(typed) > 1:
        raise BadArgument(f"{quoted(typed)} is more than one emoji: pick exactly one.")
    return canonical(typed)


def refuse_the_vote_emoji(emoji: str, config: QuizConfig) -> None:
    """The vote emoji (in any skin tone or name) cannot reveal: every vote would."""
    if same_emoji(emoji, config.vote_emoji):
        raise BadArgument(
            f"{emoji} is the vote emoji: members react with it to vote for answers, so it"
            " cannot also reveal the outline. Pick another emoji."
        )


# how a group is named on a platform without a mention syntax of its own (the console)
BARE_GROUP_FORM = "a group's name or id (such as backend-team)"
_BARE_GROUP = re.compile(r"@?([A-Za-z0-9][A-Za-z0-9_.-]{0,39})")
_EVERYONE = frozenset({"here", "everyone", "channel"})


def ping_group(word: str, platform: Platform | None = None) -> str | None:
    """The group a ``/quiz config ping`` value names on ``platform``: a mention in the
    platform's own syntax (its ``GroupMentions``), a bare id or name; None for off.
    Everyone-mentions are refused: a question must never ping the whole channel."""
    typed = word.strip()
    if typed.lower() == OFF:
        return None
    mentions = platform if isinstance(platform, GroupMentions) else None
    group = mentions.mentioned_group(typed) if mentions is not None else None
    if group is None and (bare := _BARE_GROUP.fullmatch(typed)):
        group = bare.group(1)
    if group is not None and group.lower() not in _EVERYONE:
        return group
    if typed.lstrip("<!@").lower().startswith(tuple(_EVERYONE)):
        raise BadArgument(
            f"{quoted(typed)} would ping everyone in the channel: name one role or group."
        )
    form = mentions.group_form if mentions is not None else BARE_GROUP_FORM
    raise BadArgument(f"{quoted(typed)} is not a role or group. Give {form}, or off.")
