"""The operator's coach as the running bot uses it: the endpoint, its client and the budgets.
None of it exists unless the operator set ``QUIZBOT_COACH_URL`` and ``QUIZBOT_COACH_MODEL``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from bot.coach.budget import CoachBudget
from bot.coach.client import CoachClient
from bot.coach.endpoint import CoachEndpoint

# tries of one answer's request across outbox attempts (each with the outbox's backoff);
# past them, or past the endpoint's deadline, the member is told the coach is unavailable
DEFAULT_ATTEMPTS = 4


@dataclass(frozen=True, slots=True)
class CoachSetup:
    endpoint: CoachEndpoint
    client: CoachClient
    budget: CoachBudget = field(default_factory=CoachBudget)
    attempts: int = DEFAULT_ATTEMPTS

    def reader(self) -> str:
        """What reads the answers, as a channel is told: the model and the endpoint's host
        (never the URL's path, never the key)."""
        return f"the model {self.endpoint.model} at {self.endpoint.host}"


def model_tag(model: str) -> str:
    """A short, stable stand-in for a model's name in an outbox key."""
    return hashlib.sha256(model.encode()).hexdigest()[:12]


def assessment_key(answer_id: int, model: str) -> str:
    """The outbox key of the request about one answer with one model: queued once, however
    often the answer arrives, and claimed by one replica at a time."""
    return f"coach:{answer_id}:{model_tag(model)}"


def answer_of_key(key: str) -> int | None:
    parts = key.split(":")
    if len(parts) != 3 or parts[0] != "coach" or not parts[1].isdecimal():
        return None
    return int(parts[1][:15])


def card_key(assessment_id: int) -> str:
    return f"coach:card:{assessment_id}"


def notice_key(answer_id: int, model: str, what: str) -> str:
    """The key of what the member is told instead of a card (unavailable, over budget)."""
    return f"coach:{answer_id}:{model_tag(model)}:{what}"
