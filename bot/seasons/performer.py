"""How the outbox posts a season's champions (``ActionKind.SEASON``): one channel message
under the action's key, built at send time from what the turn recorded. The worker looks
for it by that key before a retry sends it again, so a replica killed during the post
neither loses nor doubles it."""

from __future__ import annotations

import logging

from bot.kernel.models import ActionKind
from bot.outbox.performers import RoundPerformer, RoundStep
from bot.seasons.turns import SeasonTurns

log = logging.getLogger(__name__)


class SeasonPost:
    def __init__(self, turns: SeasonTurns) -> None:
        self._turns = turns

    def performer(self) -> RoundPerformer:
        return RoundPerformer(
            ActionKind.SEASON, self._post, one_message=True, paced=True, needs_question=False
        )

    async def _post(self, step: RoundStep) -> str | None:
        card = await self._turns.card(step.channel, step.action.key)
        if card is None:
            log.info("season %s is not recorded; nothing to post", step.action.key)
            return None
        sent = await step.platform.post(step.channel.ref, card, key=step.action.key)
        return sent.message_id
