"""A channel's question schedule: one question a day at most.

The quiz is a daily one: FSRS's learning steps are off because a question is asked at
most once a day, a reminder, a notice, an away day and a skipped day are days, and a
round runs until the next one closes it. A cron with several slots a day (``0 9,14 * *
*``, ``*/30 * * * *``) is refused with the reason when it is set (``/quiz schedule``, the
default schedule setting); ``/quiz now`` asks another question whenever a team wants
one. A schedule stored before this rule still fires at each of its slots.
"""

from __future__ import annotations

from bot.kernel.quoting import quoted
from bot.scheduling.schedule_spec import ScheduleError, ScheduleSpec, parse_schedule


def parse_question_schedule(text: str) -> ScheduleSpec:
    """``parse_schedule``, refusing a schedule with more than one slot a day."""
    spec = parse_schedule(text)
    slots = len(spec.hours) * len(spec.minutes)
    if slots == 1:
        return spec
    days = spec.text.split()[2:]  # only a cron names several times a day
    one_slot = " ".join([str(min(spec.minutes)), str(min(spec.hours)), *days])
    raise ScheduleError(
        f"schedule {quoted(spec.text)} posts {slots} questions a day: one question a day"
        f" at most. Give one minute and one hour, such as {quoted(one_slot)};"
        " `/quiz now` asks another question whenever you like"
    )
