"""The timer of timed practice: ``/quiz practice timed MINUTES``.

A timed session gives its question MINUTES to be answered, as an interviewer would. Its
timer is two outbox steps queued with the question (``ActionKind.PRACTICE_TIMER``, keyed by
the session): a minute before the end the member is told that one minute is left, and at
the end, with the question still unanswered, the session moves on to the first follow-up
(or, with none, to the outline) as if answered, and is kept as timed out. Each step decides
when it comes due, from the session as it is then: an answer, a stop or an expiry first
makes it do nothing. The follow-ups are not timed: they are the conversation after.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.kernel.models import ActionKind, OutboxDraft
from bot.practice.store import PracticeSession

SHORTEST = 1  # minutes a timed question may have
LONGEST = 60
LAST_MINUTE = timedelta(minutes=1)
WARNED_FROM = 3  # minutes: a shorter limit gets no last-minute warning (it would be most of it)


class TimerStep(StrEnum):
    """The two moments of a timed session's timer."""

    LAST_MINUTE = "last-minute"
    TIME_UP = "time-up"


@dataclass(frozen=True, slots=True)
class TimerTick:
    """A timer step come due: which session, and which moment."""

    session_id: int
    step: TimerStep


def timer_key(session_id: int, step: TimerStep) -> str:
    # "clock" in the key: keys are stored, and keep the form they had
    return f"practice:{session_id}:clock:{step.value}"


def tick_of(key: str) -> TimerTick | None:
    """The session and moment of a timer step's outbox key; None for any other key."""
    parts = key.split(":")
    if len(parts) != 4 or parts[0] != "practice" or parts[2] != "clock":
        return None
    if not (parts[1].isascii() and parts[1].isdigit()):
        return None
    try:
        return TimerTick(int(parts[1][:12]), TimerStep(parts[3]))
    except ValueError:
        return None


def timer_drafts(session: PracticeSession) -> list[OutboxDraft]:
    """The outbox steps of a timed session's timer; none for an untimed one."""
    deadline = session.deadline
    if deadline is None or session.time_limit_minutes is None:
        return []
    steps = []
    if session.time_limit_minutes >= WARNED_FROM:
        steps.append((TimerStep.LAST_MINUTE, deadline - LAST_MINUTE))
    steps.append((TimerStep.TIME_UP, deadline))
    return [
        OutboxDraft(
            None,
            ActionKind.PRACTICE_TIMER,
            timer_key(session.id, step),
            session.direct,
            due=due,
        )
        for step, due in steps
    ]


def waits_on_question(session: PracticeSession) -> bool:
    """Whether the timed question is still unanswered (the timer still matters)."""
    return session.deadline is not None and session.answers == 0 and not session.timed_out


def time_left(session: PracticeSession, now: datetime) -> timedelta | None:
    """What is left of the time to answer; None when untimed or no longer timed."""
    deadline = session.deadline
    if deadline is None or not waits_on_question(session):
        return None
    return max(deadline - now, timedelta(0))


def show_span(span: timedelta) -> str:
    """``4 min 12 s``, ``10 min``, ``40 s``: a time on the clock, as a member reads it."""
    seconds = max(int(span.total_seconds()), 0)
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"
