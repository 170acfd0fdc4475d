"""The direct messages of notices, and what ``/quiz notify`` answers."""

from __future__ import annotations

from bot.kernel.cards import info, with_article
from bot.kernel.durations import show_minutes
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.render import Card, Field
from questions.pack import Question

OFF_HINT = "`/quiz notify off` in the channel stops these messages."


def _where(channel: ChannelSettings, link: str | None) -> str:
    """Where to answer, ending the sentence: the channel's name and its link, or the name
    and a full stop (a link is left without one, which some clients would take into it)."""
    name = f"#{channel.ref.name.lstrip('#')}" if channel.ref.name else "the quiz channel"
    return f"{name}: {link}" if link else f"{name}."


def question_notice_card(
    channel: ChannelSettings, round_: Round, question: Question, link: str | None
) -> Card:
    """Question #N is up, its topic, and where to answer."""
    return Card(
        title=f"Question #{round_.number} is up",
        body=f"A{with_article(question.topic)[1:]} question was just posted in"
        f" {_where(channel, link)}",
        fields=(Field("Question", question.question),),
        footer=OFF_HINT,
    )


def last_call_card(channel: ChannelSettings, round_: Round, link: str | None) -> Card:
    """Last call for question #N: what comes next, and in how long."""
    coming = (
        "its outline is posted" if channel.reveal_after_minutes else "the next question is posted"
    )
    minutes = channel.last_call_minutes or 0
    return Card(
        title=f"Last call for question #{round_.number}",
        body=(
            f"You have not answered yet, and {coming} in about {show_minutes(minutes)}."
            f" Answer in {_where(channel, link)}"
        ),
        footer=OFF_HINT,
    )


def notify_card(on: bool, channel: ChannelSettings) -> Card:
    """What ``/quiz notify`` answers: the member's setting now and what it does."""
    if not on:
        return info(
            "Notices off",
            "You get no direct messages about this channel's questions. `/quiz notify on`"
            " sends you one when a question posts"
            + (" and a last call before its outline." if channel.last_call_minutes else "."),
        )
    last_call = (
        f", and a last call {show_minutes(channel.last_call_minutes)} before its outline is"
        " due if you have not answered"
        if channel.last_call_minutes
        else ""
    )
    return info(
        "Notices on",
        f"I send you a direct message when this channel's question posts{last_call}."
        " Nobody else is told. `/quiz notify off` stops them.",
    )
