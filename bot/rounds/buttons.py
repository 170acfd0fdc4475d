"""The buttons under a round's cards: Reveal on the question, the grades under the outline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.kernel.cards import info
from bot.kernel.errors import Refused
from bot.kernel.events import ButtonPress
from bot.kernel.grades import Grade
from bot.kernel.models import ChannelSettings, Round
from bot.kernel.refs import MemberRef
from bot.kernel.render import Response
from bot.rounds.cards import REVEAL_ACTION, grade_of_action, round_id_from
from bot.rounds.engine import QuizEngine
from bot.rounds.store import RoundStore

GradeRound = Callable[[ChannelSettings, Round, MemberRef, Grade], Awaitable[Response]]


class RoundButtons:
    """Reveals a round's outline or records a member's grade of it, from its buttons."""

    def __init__(self, engine: QuizEngine, rounds: RoundStore, grade: GradeRound) -> None:
        self._engine = engine
        self._rounds = rounds
        self._grade = grade

    async def on_press(self, press: ButtonPress) -> Response:
        grade = grade_of_action(press.action)
        if press.action != REVEAL_ACTION and grade is None:
            raise Refused("That button is no longer supported.")
        channel = await self._engine.channel(press.channel)
        round_id = round_id_from(press.value)
        round_ = await self._rounds.get_round(round_id) if round_id is not None else None
        if channel is None or round_ is None or round_.channel_id != channel.id:
            raise Refused("That round is not in this channel.")
        if grade is not None:
            return await self._grade(channel, round_, press.member, grade)
        if await self._engine.reveal(channel, round_):
            return Response(info("Revealing the outline in the thread."))
        return Response(info("The outline is already in the thread."))
