"""What the coach may spend: a workspace's tokens a day and a member's requests a day, both
counted on UTC days, so a budget resets at 00:00 UTC."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

DEFAULT_DAILY_TOKENS = 200_000  # a workspace's: about 300 answers at ~600 tokens each
DEFAULT_DAILY_REQUESTS_PER_MEMBER = 20


@dataclass(frozen=True, slots=True)
class CoachBudget:
    daily_tokens: int = DEFAULT_DAILY_TOKENS
    daily_requests_per_member: int = DEFAULT_DAILY_REQUESTS_PER_MEMBER

    def __post_init__(self) -> None:
        if self.daily_tokens < 1 or self.daily_requests_per_member < 1:
            raise ValueError("a coach budget is at least 1 token and 1 request a day")

    def spent(self, *, workspace_tokens: int, member_requests: int) -> str | None:
        """Which budget is used up, as the member is told; None: neither."""
        if workspace_tokens >= self.daily_tokens:
            return "the team's coach budget for today"
        if member_requests >= self.daily_requests_per_member:
            return f"your daily limit of coach readings ({self.daily_requests_per_member})"
        return None


def budget_day(now: datetime) -> datetime:
    """The start (UTC) of the budget day ``now`` falls in."""
    return datetime.combine(now.astimezone(UTC).date(), time(), tzinfo=UTC)


def resets_at(now: datetime) -> datetime:
    """When the budgets of ``now``'s day start again."""
    return budget_day(now) + timedelta(days=1)
