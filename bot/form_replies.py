"""Which inbound events may be answered with a form, across the features that open one.

Discord must know it before the core handles the event: an interaction answered with a
modal cannot be deferred first, and every other one is deferred at once.
"""

from __future__ import annotations

from bot.bank import review_desk
from bot.blind import answers as blind_answers
from bot.kernel.events import ButtonPress, Command
from bot.reviews import forms as review_forms


def may_open_form(event: Command | ButtonPress) -> bool:
    """Whether the answer to ``event`` may be a form (Discord must then not defer it)."""
    return (
        blind_answers.opens_form(event)
        or review_desk.opens_form(event)
        or review_forms.opens_form(event)
    )
