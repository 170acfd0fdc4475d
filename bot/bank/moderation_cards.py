"""Cards of the moderation queue: pending suggestions and errata flags, with their buttons."""

from __future__ import annotations

from collections.abc import Sequence

from bot.bank.store import Flag, Suggestion
from bot.kernel.render import Button, Card, CardKind
from questions.pack import Question

# The buttons' actions keep the word "review": they are in the buttons of messages already
# posted, which must keep working.
APPROVE_ACTION = "review_approve"
EDIT_ACTION = "review_edit"
REJECT_ACTION = "review_reject"
MODERATION_ACTIONS = (APPROVE_ACTION, EDIT_ACTION, REJECT_ACTION)
ITEMS_SHOWN = 5  # per kind: buttons stay within one message's limits (Discord: 25)
OUTLINE_PREVIEW = 500
# `/quiz review` (the moderation queue) with its action given: the registry's form of the
# command (a test holds them together; the registry imports this module's callers, so it
# cannot be read here).
DECISION_FORM = "/quiz review approve|reject|edit ITEM [REASON...]"


def suggestion_item(suggestion: Suggestion) -> str:
    return f"s{suggestion.id}"


def flag_item(flag: Flag) -> str:
    return f"f{flag.id}"


def describe_question(question: Question, *, preview: bool = True) -> str:
    outline = question.outline
    if preview and len(outline) > OUTLINE_PREVIEW:
        outline = outline[:OUTLINE_PREVIEW].rstrip() + "…"
    lines = [f"Topic: {question.topic}", f"Q: {question.question}", f"Outline: {outline}"]
    lines += [f"Follow-up: {ask}" for ask in question.follow_up_asks]
    lines += [f"Key point: {p}" for p in question.key_points]
    return "\n".join(lines)


def suggestion_buttons(item: str) -> tuple[Button, ...]:
    return (
        Button(f"Approve {item}", APPROVE_ACTION, item),
        Button(f"Edit {item}", EDIT_ACTION, item),
        Button(f"Reject {item}", REJECT_ACTION, item),
    )


def moderation_queue_card(suggestions: Sequence[Suggestion], flags: Sequence[Flag]) -> Card:
    if not suggestions and not flags:
        return Card(
            title="Review queue",
            body="Nothing to review: no pending suggestions and no open flags.",
        )
    parts: list[str] = []
    buttons: list[Button] = []
    if suggestions:
        parts.append(f"Pending suggestions ({len(suggestions)})")
        for suggestion in suggestions[:ITEMS_SHOWN]:
            item = suggestion_item(suggestion)
            by = suggestion.member.label()
            parts.append(f"#{item} by {by}\n{describe_question(suggestion.question)}")
            buttons += suggestion_buttons(item)
    if flags:
        parts.append(f"Flags ({len(flags)})")
        for flag in flags[:ITEMS_SHOWN]:
            item = flag_item(flag)
            parts.append(
                f"#{item} on question #{flag.round_number} ({flag_subject(flag)})"
                f" by {flag.member.label()}: {flag.reason}"
            )
            buttons += (
                Button(f"Edit question {item}", EDIT_ACTION, item),
                Button(f"Dismiss {item}", REJECT_ACTION, item),
            )
    hidden = max(0, len(suggestions) - ITEMS_SHOWN) + max(0, len(flags) - ITEMS_SHOWN)
    footer = f"Text form: {DECISION_FORM} (ITEM: s<N> a suggestion, f<N> a flag)."
    if hidden:
        footer = f"{hidden} more after these. {footer}"
    return Card(
        title="Review queue",
        body="\n\n".join(parts),
        footer=footer,
        buttons=tuple(buttons),
    )


def flag_subject(flag: Flag) -> str:
    pack = "this workspace" if flag.pack.startswith("workspace:") else flag.pack
    return f"{pack}/{flag.question_key}"


def suggestion_card(suggestion: Suggestion, note: str) -> Card:
    item = suggestion_item(suggestion)
    return Card(
        title=f"Suggestion #{item}",
        body=f"{note}\n\n{describe_question(suggestion.question, preview=False)}",
        buttons=suggestion_buttons(item),
    )


def refused_form(what: str, problems: str, typed: str) -> Card:
    body = f"{what} was not saved:\n{problems}"
    if typed:
        body += f"\n\nWhat you typed (nothing is lost; copy it into the form again):\n{typed}"
    return Card(title="Sorry", body=body, kind=CardKind.ERROR)
