"""What the coach counts: the port the feature uses, and a no-op for when nothing exports it
(the Prometheus exporter of ``adapters/ops/metrics.py`` implements it)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class CoachMetrics(Protocol):
    def coach_request(self, outcome: str) -> None:
        """``outcome``: answered, cached, failed, refused, malformed, over_budget."""
        ...

    def coach_tokens(self, tokens: int) -> None: ...

    def coach_dropped(self, reason: str, count: int) -> None:
        """Proposed ticks the verification dropped, by ``DropReason`` value."""
        ...

    def coach_decision(self, decision: str) -> None:
        """``decision``: accepted (as they were), edited, dismissed."""
        ...


class NoCoachMetrics:
    def coach_request(self, outcome: str) -> None:
        pass

    def coach_tokens(self, tokens: int) -> None:
        pass

    def coach_dropped(self, reason: str, count: int) -> None:
        pass

    def coach_decision(self, decision: str) -> None:
        pass
