"""The coach's side of ``/quiz config coach on|off``: what reads the answers, what the
operator must set first, and the one post telling the channel."""

from __future__ import annotations

from bot.coaching.cards import turned_on_card
from bot.coaching.setup import CoachSetup
from bot.kernel.clock import Clock
from bot.kernel.models import ChannelSettings, direct_draft
from bot.kernel.outbox_queue import OutboxQueue

MISSING_SETTINGS = (
    "The coach has no endpoint yet. The operator sets `QUIZBOT_COACH_URL` (an"
    " OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1) and `QUIZBOT_COACH_MODEL`"
    " (and `QUIZBOT_COACH_API_KEY` if the endpoint wants one), restarts quizbot, and checks"
    " it with `quizbot doctor`; then `/quiz config coach on`."
)


class CoachSwitch:
    """Offers ``bot.kernel.coach_consent.CoachConsent`` to the channel settings."""

    def __init__(self, setup: CoachSetup | None, outbox: OutboxQueue, clock: Clock) -> None:
        self._setup = setup
        self._outbox = outbox
        self._clock = clock

    def reader(self) -> str | None:
        return None if self._setup is None else self._setup.reader()

    def missing_settings(self) -> str:
        return MISSING_SETTINGS

    async def announce(self, channel: ChannelSettings) -> None:
        reader = self.reader()
        if reader is None:
            return
        # each turning on is told once: the moment it was turned on is in the key
        moment = self._clock.now().strftime("%Y%m%dT%H%M%S%f")
        key = f"coach:on:{channel.id}:{moment}"
        await self._outbox.queue([direct_draft(channel.ref, turned_on_card(reader), key)])
