"""How the outbox posts a weekly recap (``ActionKind.RECAP``): a channel message of no
one question, built at send time from its outbox key."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot.kernel.clock import Clock
from bot.kernel.models import ActionKind, ChannelSettings
from bot.kernel.platform import Platform, SeparateImages
from bot.kernel.render import Card
from bot.outbox.performers import RoundPerformer, RoundStep
from bot.recaps.recap import chart_key
from bot.recaps.store import RecapStore

log = logging.getLogger(__name__)

# Builds a recap's card (with its chart) at send time from its outbox key; None: nothing to send.
RecapCard = Callable[[Platform, ChannelSettings, str], Awaitable[Card | None]]


class RecapPost:
    """Posts a recap's card, its text and its chart as separate steps where the platform
    sends a picture apart from its text."""

    def __init__(self, card: RecapCard, recaps: RecapStore, clock: Clock) -> None:
        self._card = card
        self._recaps = recaps
        self._clock = clock

    def performer(self) -> RoundPerformer:
        return RoundPerformer(ActionKind.RECAP, self._post, paced=True, needs_question=False)

    async def _post(self, step: RoundStep) -> str | None:
        """The recap's card; where the platform sends a picture apart from its text
        (``SeparateImages``), in two steps: the text, kept as the action's progress, then
        the chart under a key of its own, so a retry goes on where the last one stopped."""
        platform, action, channel = step.platform, step.action, step.channel
        separate = isinstance(platform, SeparateImages)
        progress = action.result_ref if separate else None  # the text an attempt posted
        text = progress
        if text is None and action.attempts > 1:
            already = await platform.find_sent(channel.ref, action.key)
            if already is not None:
                log.info("action %s was already sent; recording it", action.key)
                if not separate:
                    return already.message_id
                text = already.message_id
        card = await self._card(platform, channel, action.key)
        if card is None:
            log.info("recap %s has nothing to report; not sent", action.key)
            return text
        if not isinstance(platform, SeparateImages) or card.image is None:
            if text is not None:
                return text
            return (await platform.post(channel.ref, card, key=action.key)).message_id
        if text is None:
            words = dataclasses.replace(card, image=None)
            text = (await platform.post(channel.ref, words, key=action.key)).message_id
        if progress is None:
            await self._recaps.record_recap_text(action.key, text, self._clock.now())
        chart = chart_key(action.key)
        # Only an attempt that got past the text may have uploaded the chart (a kill
        # between the upload and the action's completion): look for it before uploading.
        if progress is not None and await platform.find_image(channel.ref, card.image, key=chart):
            log.info("the chart of %s was already uploaded; recording it", action.key)
            return text
        if await platform.post_image(channel.ref, card.image, key=chart) is None:
            log.info("the chart of %s was refused; the recap stands without it", action.key)
        return text
