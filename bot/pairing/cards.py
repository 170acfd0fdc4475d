"""What mock-interview pairs are sent: the intro in their shared conversation and each
interviewer's private brief."""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.render import Card, Field
from bot.reviews.rubric import SCORES
from questions.pack import Question

SLOT_MINUTES = 30
HOW_TO_RUN = (
    "Ask the question as written, then wait: let them think aloud without hints.",
    "Follow up on what they said with the follow-ups below, one at a time.",
    "Do not show or read out the outline or the key points: they are for you to check.",
    "Afterwards, rate it: `/quiz pair rate SCORE [N...]` (score 1-4, and the numbers of"
    " the key points they covered).",
)


def interviews_in(names: Sequence[str]) -> str:
    """ "Ann interviews Bob, Bob interviews Ann." (each the next, the last the first)."""
    turns = [f"{names[i]} interviews {names[(i + 1) % len(names)]}" for i in range(len(names))]
    return ", ".join(turns) + "."


def intro_card(names: Sequence[str], week: str) -> Card:
    """The first message of the pair's (or group of three's) shared conversation."""
    together = (
        " and ".join(names) if len(names) == 2 else f"{', '.join(names[:-1])} and {names[-1]}"
    )
    if len(names) == 2:
        slot = (
            f"Find a {SLOT_MINUTES}-minute slot that suits you both (suggestion:"
            f" {SLOT_MINUTES} minutes early in the week, at a time inside both your working"
            " hours)"
        )
        whom = "your partner"
    else:
        slot = (
            f"Find a {SLOT_MINUTES}-minute slot for each interview that suits all"
            f" {_COUNTS.get(len(names), str(len(names)))} of you (suggestion: early in the"
            " week, at times inside all your working hours)"
        )
        whom = "the member you interview"
    return Card(
        "Mock interview of the week",
        f"Hi {together}! You are paired for a mock interview this week ({week}). {slot} and"
        f" take turns: {interviews_in(names)} Each of you got a private brief with one"
        f" question for {whom}; nobody sees their own. After the interview, the interviewer"
        " rates it with `/quiz pair rate SCORE [N...]` in the quiz channel. `/quiz pair skip`"
        " skips next week, `/quiz pair off` stops pairing.",
    )


_COUNTS = {3: "three", 4: "four"}


def _follow_up(ask: str, notes: Sequence[str]) -> str:
    """A follow-up to ask, and under it what a good answer contains (its reference notes)."""
    return "\n".join([f"- {ask}", *(f"    – {note}" for note in notes)])


def brief_card(partner: str, question: Question, week: str) -> Card:
    """An interviewer's brief: the question for ``partner``, what to listen for and how."""
    follow_ups = "\n".join(_follow_up(f.ask, f.note_lines) for f in question.follow_ups)
    follow_ups = follow_ups or "- (none)"
    points = "\n".join(f"{n}. {p}" for n, p in enumerate(question.key_points, 1)) or "(none)"
    scores = ", ".join(f"{s} {label}" for s, label in SCORES.items())
    return Card(
        f"Your interviewer brief: {partner}",
        f"This week ({week}) you interview {partner} on **{question.topic}**. Ask:\n\n"
        f"> {question.question}",
        fields=(
            Field("Follow-ups", follow_ups),
            Field("Key points to listen for", points),
            Field("Outline (for you only)", question.outline),
            Field("How to run it", "\n".join(f"- {step}" for step in HOW_TO_RUN)),
            Field("Score", scores),
        ),
        footer="Only you see this brief.",
    )
