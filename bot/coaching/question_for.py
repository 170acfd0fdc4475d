"""How the coach finds a question (the round engine offers it)."""

from __future__ import annotations

from collections.abc import Callable

from bot.kernel.refs import ChannelRef
from questions.pack import Question

QuestionFor = Callable[[ChannelRef, int], Question | None]
