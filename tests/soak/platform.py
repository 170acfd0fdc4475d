"""A FakePlatform that notes the (fake) time it received each message."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.kernel.clock import Clock
from bot.kernel.refs import MessageRef
from tests.fakes import FakePlatform, Sent


@dataclass
class TimedPlatform(FakePlatform):
    clock: Clock | None = None  # set before anything is sent
    received_at: list[datetime] = field(default_factory=list)  # beside ``messages``

    def _record(self, sent: Sent) -> MessageRef:
        assert self.clock is not None, "a TimedPlatform needs its clock"
        self.received_at.append(self.clock.now())
        return super()._record(sent)

    def received(self) -> list[tuple[datetime, Sent]]:
        return list(zip(self.received_at, self.messages, strict=True))
