"""The quiz's behaviour, as the core sees it (built from Settings by the runtime)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.kernel.models import FollowUpPolicy
from bot.kernel.scoring import ScoringRules


@dataclass(frozen=True, slots=True)
class QuizConfig:
    """Behaviour of the quiz that is not per channel: scoring, vote emoji, retries."""

    default_timezone: str = "UTC"
    default_schedule: str | None = "weekdays 09:00"
    reveal_emoji: str = "💡"
    vote_emoji: str = "👍"
    followup_policy: FollowUpPolicy = FollowUpPolicy.AFTER_FIRST_ANSWER
    grace_hours: float = 6.0
    scoring: ScoringRules = field(default_factory=ScoringRules)
    max_send_attempts: int = 8
    first_retry_seconds: float = 2.0
    max_retry_seconds: float = 300.0
    send_concurrency: int = 8
    # Several replicas share the store (PostgreSQL): each walks a slot's channels from a
    # random starting point, so they record different channels' rounds at the same time
    # instead of all racing for the first channel, then the second...
    replicas_share_store: bool = False
    # How long completed outbox actions and inbound event ids are kept (see bot.outbox.retention).
    outbox_retention_days: float = 30.0
    event_retention_days: float = 7.0
    # per-round facts the engine keeps (see bot.kernel.bounded_cache)
    round_cache_size: int = 20_000
    # The browser pages (/quiz dashboard): the address members open them at (None: not
    # served), the links' secret (None: one generated and kept in the database) and how long
    # a link lasts.
    dashboard_url: str | None = None
    dashboard_secret: str | None = field(default=None, repr=False)
    dashboard_link_minutes: int = 60
