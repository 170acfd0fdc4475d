"""A channel's topics as admins change them: `/quiz topics enable|disable` and whether new
topics (an approved suggestion's, a new pack's) join enabled, `/quiz config new-topics`."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.kernel.topic_choice import TopicChoice
from bot.quiz_command.grammar import Param, ParamKind, Setting
from bot.quiz_command.typed import QuizCommand

NEW_TOPICS_ON = "enabled"
NEW_TOPICS_OFF = "disabled"


@dataclass(frozen=True, slots=True)
class SetNewTopics(QuizCommand):
    """``/quiz config new-topics enabled|disabled``: whether a topic that appears later is
    enabled in the channel."""

    enabled: bool


NEW_TOPICS = Setting(
    "new-topics",
    Param(
        "value",
        ParamKind.CHOICE,
        "whether a topic that appears later (an approved suggestion's) is enabled here",
        choices=(NEW_TOPICS_ON, NEW_TOPICS_OFF),
        invalid=f"Give new-topics as {NEW_TOPICS_ON} or {NEW_TOPICS_OFF}, not {{value}}.",
    ),
    lambda word: SetNewTopics(word == NEW_TOPICS_ON),
    lambda channel: NEW_TOPICS_ON if channel.topics.new_topics_enabled else NEW_TOPICS_OFF,
)


def new_topics_note(choice: TopicChoice) -> str:
    if choice.new_topics_enabled:
        return (
            "New topics join enabled here, such as an approved suggestion's"
            f" (`/quiz config new-topics {NEW_TOPICS_OFF}` changes it)."
        )
    return (
        "New topics join disabled here: enable each with `/quiz topics enable TOPIC`"
        f" (`/quiz config new-topics {NEW_TOPICS_ON}` changes it)."
    )


def topics_changed_note(choice: TopicChoice, known: Collection[str]) -> str:
    """What an admin is told after `/quiz topics enable|disable`."""
    on = sorted(topic for topic in known if choice.allows(topic))
    off = sorted(topic for topic in known if not choice.allows(topic))
    if not off:
        shown = "Every topic is enabled."
    elif len(on) < len(off):  # the shorter list says it
        shown = f"Enabled topics: {', '.join(on)}."
    else:
        shown = f"Disabled topics: {', '.join(off)}."
    return f"{shown} {new_topics_note(choice)}"
