"""What the bank's suggestions and their moderation queue share with the subcommands: the
forms' names, which events open a form, the queue's items (``s12``, ``f3``), an approved
suggestion's question id, and the limit of waiting suggestions a member may have."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.bank._question_form import (
    question_form,
)
from bot.bank.moderation_cards import (
    EDIT_ACTION,
    REJECT_ACTION,
)
from bot.bank.store import (
    Suggestion,
)
from bot.kernel import cards
from bot.kernel.events import ButtonPress, Command
from bot.kernel.forms import Form
from bot.kernel.render import Response
from questions.seed_import import slugify

SUGGEST_FORM = "suggest"
EDIT_SUGGESTION_FORM = "edit_suggestion"
EDIT_QUESTION_FORM = "edit_question"
REJECT_FORM = "reject"
ADMIN_FORMS = (EDIT_SUGGESTION_FORM, EDIT_QUESTION_FORM, REJECT_FORM)
REASON = "reason"
PLACEHOLDER_ID = "suggested"
ITEM = re.compile(r"#?(?P<kind>[sf]?)(?P<number>[0-9]{1,9})")
QUESTION_ID_WORDS = 48
MAX_PENDING_SUGGESTIONS = 5  # per member and workspace: the queue stays reviewable


@dataclass(frozen=True, slots=True)
class Item:
    """An entry of the moderation queue: ``s12`` a suggestion, ``f3`` a flag."""

    kind: str  # "s" a suggestion, "f" a flag
    number: int

    def __str__(self) -> str:
        return f"{self.kind}{self.number}"


def parse_item(text: str) -> Item | None:
    match = ITEM.fullmatch(text.strip().lower())
    if match is None:
        return None
    return Item(match["kind"] or "s", int(match["number"]))


def opens_form(event: Command | ButtonPress) -> bool:
    """Whether the event may be answered with a question form: ``/quiz suggest``, ``/quiz
    review edit ...``, or a suggestion's Edit or Reject button."""
    if isinstance(event, ButtonPress):
        return event.action in (EDIT_ACTION, REJECT_ACTION)
    name = event.name.strip().lower()
    edits = name == "review" and bool(event.args) and event.args[0].strip().lower() == "edit"
    return name == "suggest" or edits


def no_quiz_to_suggest_to() -> Response:
    """The answer to a suggestion from a channel with no quiz. A suggestion is the
    workspace's, but it is filed from a quiz channel: that channel's admins review it, its
    leaderboard pays the bonus and its members are told the outcome."""
    return Response(
        cards.info(
            "Suggest from a quiz channel",
            "This channel has no quiz, and a suggestion is filed from one: its admins review"
            " it and its leaderboard pays the points of an approved question. To suggest,"
            " run `/quiz suggest` in a channel of this workspace that has a quiz, or have an"
            " admin start one here first with `/quiz now` or `/quiz schedule weekdays 09:30`.",
        )
    )


def suggest_form() -> Form:
    return question_form(SUGGEST_FORM, "", "Suggest a question", None)


def approved_question_id(suggestion: Suggestion) -> str:
    """A readable, stable id for the workspace pack: the question's words and its number."""
    words = slugify(suggestion.question.question, max_length=QUESTION_ID_WORDS)
    return f"{words}-s{suggestion.id}" if words else f"suggestion-{suggestion.id}"
