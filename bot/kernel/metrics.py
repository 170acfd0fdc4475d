"""What the core counts, as a port: the runtime plugs in Prometheus; tests and the console don't."""

from __future__ import annotations

from typing import Protocol


class Metrics(Protocol):
    """What the core counts and times (answers, duplicates, sends); ops renders it."""

    def round_posted(self, platform: str) -> None: ...

    def answer_recorded(self, platform: str, outcome: str) -> None:
        """``outcome`` is an AnswerOutcome value: scored, kept or duplicate."""
        ...

    def duplicate_event(self, platform: str) -> None: ...

    def action_sent(self, platform: str, kind: str, seconds: float) -> None:
        """An outbox action performed; ``seconds`` is the platform call's latency."""
        ...

    def platform_error(self, platform: str, kind: str) -> None:
        """``kind``: rate_limited, channel_unavailable, error, gave_up."""
        ...


class NoMetrics:
    """Metrics that count nothing, when no exporter runs."""

    def round_posted(self, platform: str) -> None:
        pass

    def answer_recorded(self, platform: str, outcome: str) -> None:
        pass

    def duplicate_event(self, platform: str) -> None:
        pass

    def action_sent(self, platform: str, kind: str, seconds: float) -> None:
        pass

    def platform_error(self, platform: str, kind: str) -> None:
        pass
