"""When a round's timed steps fall due: the reveal-after time and the last call.

Both are outbox actions queued with the round (``REVEAL_DUE``, ``LAST_CALL``). Their time is
worked out again from the channel's settings as they are when the action comes due, so an
admin who changes ``reveal-after`` or ``last-call`` while a round is open moves its steps:
an action that comes early is put off to the new time, one whose setting was turned off
does nothing. A last call timed by the next scheduled question also waits when that
question's day was skipped since (``/quiz schedule skip``). A last call whose moment
passed (the bot was down) is dropped, not sent late: it tells when the outline or the
next question comes, and after downtime that may have come already.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, timedelta

from bot.kernel.models import ActionKind, ChannelSettings, LaterAction, Round
from bot.scheduling.next_post import next_post

# How late a last call may still be sent: a busy outbox, a replica taking over a claim.
LAST_CALL_LATENESS = timedelta(minutes=5)


def reveal_due_at(channel: ChannelSettings, created_at: datetime) -> datetime | None:
    """When the outline of a round created at ``created_at`` is posted if nobody revealed
    it; None when the channel does not reveal by time."""
    if channel.reveal_after_minutes is None:
        return None
    return created_at + timedelta(minutes=channel.reveal_after_minutes)


def last_call_at(
    channel: ChannelSettings, created_at: datetime, skipped: Collection[date] = ()
) -> datetime | None:
    """When members who asked for notices and have not answered get the last call: that
    long before the outline is due, or without a reveal-after time, before the next
    scheduled question (not on a ``skipped`` day); None without a last call, or with
    nothing it could come before."""
    window = _last_call_window(channel, created_at, skipped)
    return None if window is None else window[0]


def last_call_passed(
    channel: ChannelSettings, round_: Round, now: datetime, skipped: Collection[date] = ()
) -> bool:
    """Whether the round's last call missed its moment by ``now``: more than
    ``LAST_CALL_LATENESS`` after it, or once what it announces is due."""
    window = _last_call_window(channel, round_.created_at, skipped)
    if window is None:
        return False
    at, ends = window
    return now - at > LAST_CALL_LATENESS or now >= ends


def _last_call_window(
    channel: ChannelSettings, created_at: datetime, skipped: Collection[date]
) -> tuple[datetime, datetime] | None:
    """When the last call is due and when what it announces comes (the outline or the
    next question)."""
    if channel.last_call_minutes is None:
        return None
    ends = reveal_due_at(channel, created_at) or next_post(channel, created_at, skipped)
    if ends is None:
        return None
    at = ends - timedelta(minutes=channel.last_call_minutes)
    return (at, ends) if at > created_at else None


def timed_actions(channel: ChannelSettings, created_at: datetime) -> list[LaterAction]:
    """The timed steps of a round the channel starts at ``created_at``."""
    steps = []
    if (reveal := reveal_due_at(channel, created_at)) is not None:
        steps.append(LaterAction(ActionKind.REVEAL_DUE, reveal))
    if (last_call := last_call_at(channel, created_at)) is not None:
        steps.append(LaterAction(ActionKind.LAST_CALL, last_call))
    return steps


def due_again(
    kind: ActionKind, channel: ChannelSettings, round_: Round, skipped: Collection[date] = ()
) -> datetime | None:
    """When a timed step of ``round_`` falls due under the channel's settings now (and
    its ``skipped`` days: a skipped day's question does not come, so a last call before it
    waits for the next one); None when the step no longer applies (its setting is off)."""
    if kind is ActionKind.REVEAL_DUE:
        return reveal_due_at(channel, round_.created_at)
    return last_call_at(channel, round_.created_at, skipped)


def waits_for_the_next_question(kind: ActionKind, channel: ChannelSettings) -> bool:
    """Whether the step's time follows the next scheduled question (a last call without a
    reveal-after time), which a skipped day moves."""
    return kind is ActionKind.LAST_CALL and channel.reveal_after_minutes is None
