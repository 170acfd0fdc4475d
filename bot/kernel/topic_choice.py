"""Which topics a channel asks, as its admins chose them.

Admins start from every topic and turn some off (`/quiz topics disable`), so the choice is
kept as the topics turned off: a topic that appears later (an approved suggestion's, a new
pack's) is enabled like every topic they did not turn off. A channel whose admins chose
that new topics join disabled (`/quiz config new-topics disabled`) keeps the topics turned
on instead, and a later topic is off there until enabled.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TopicChoice:
    """The topics turned ``off``; or, when new topics join disabled, the ``only`` ones on."""

    off: frozenset[str] = frozenset()
    only: frozenset[str] | None = None

    @property
    def new_topics_enabled(self) -> bool:
        return self.only is None

    @property
    def customised(self) -> bool:
        """Whether some topic may be off (a choice other than every topic, now and later)."""
        return bool(self.off) or self.only is not None

    def allows(self, topic: str) -> bool:
        return topic in self.only if self.only is not None else topic not in self.off

    def enabled(self, known: Collection[str]) -> frozenset[str] | None:
        """The enabled topics among ``known`` (None: every topic, whichever appears)."""
        if not self.customised:
            return None
        return frozenset(topic for topic in known if self.allows(topic))

    def with_enabled(self, enabled: Collection[str], known: Collection[str]) -> TopicChoice:
        """The same choice for new topics, with ``enabled`` the topics on among ``known``."""
        if self.only is not None:
            return TopicChoice(only=frozenset(enabled))
        return TopicChoice(off=frozenset(known).difference(enabled))

    def with_new_topics(self, enabled: bool, known: Collection[str]) -> TopicChoice:
        """The topics on among ``known`` kept, and new topics joining enabled or not."""
        on = self.enabled(known)
        on = frozenset(known) if on is None else on
        if enabled:
            return TopicChoice(off=frozenset(known).difference(on))
        return TopicChoice(only=on)


EVERY_TOPIC = TopicChoice()  # a channel whose admins chose nothing: every topic, new ones too
