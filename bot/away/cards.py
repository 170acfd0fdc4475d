"""The away feature's cards: a member's status, as ``/quiz away`` and ``/quiz me`` show it."""

from __future__ import annotations

from datetime import date, timedelta

from bot.kernel.cards import info
from bot.kernel.local_dates import day_label
from bot.kernel.render import Card, Field

SET_FORM = "`/quiz away until YYYY-MM-DD`"


def away_text(until: date) -> str:
    """``until Thu 24 Dec 2026 (back Fri 25 Dec 2026)``: the date is the last day away."""
    return f"until {day_label(until)} (back {day_label(until + timedelta(days=1))})"


def away_field(until: date) -> Field:
    return Field("Away", away_text(until))


def away_card(until: date | None, title: str) -> Card:
    if until is None:
        return info(
            "Not away",
            f"Going on holiday? {SET_FORM} (the last day you are away) pauses your "
            "reminders and notifications, and scheduled rounds of those days neither "
            "count toward nor break your streak.",
        )
    return info(
        title,
        f"Away {away_text(until)}: no reminders or notifications meanwhile, and "
        "scheduled rounds of those days neither count toward nor break your streak. "
        "`/quiz away off` brings you back today.",
    )


def back_card(was_away: bool) -> Card:
    if not was_away:
        return info("You were not away.")
    return info(
        "Welcome back",
        "Back from today: reminders and notifications resume, and today's round counts "
        f"for your streak. Away again: {SET_FORM}.",
    )
