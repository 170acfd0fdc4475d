"""Domain records shared by the engine and the stores."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from bot.kernel.topic_choice import EVERY_TOPIC, TopicChoice
from questions.pack import Difficulty


class FollowUpPolicy(StrEnum):
    """When a round's follow-up questions are posted."""

    AFTER_FIRST_ANSWER = "after_first_answer"
    IMMEDIATELY = "immediately"
    WITH_REVEAL = "with_reveal"


class AnswerMode(StrEnum):
    """Where a channel's members answer: in the question's thread for all to see, or
    blind (privately, through a form or ``/quiz answer``, all posted at the reveal)."""

    THREAD = "thread"
    BLIND = "blind"


class RoundState(StrEnum):
    """Whether a round still takes answers."""

    OPEN = "open"
    CLOSED = "closed"


class ActionKind(StrEnum):
    """Outgoing actions, performed in this order by the outbox worker: a round's, and
    ``DIRECT`` (a card for one member's direct messages, which belongs to no round).

    The stored vocabulary of the outbox: each value is written in the ``kind`` of outbox
    rows on both backends (and in round action keys, ``action_key``), so a value never
    changes once released (``PRACTICE_TIMER`` keeps ``practice_clock``): renaming one would
    leave queued work no performer recognises. The kinds are listed here, in the kernel,
    rather than declared by the features, for that reason; each feature brings the
    performer of its own kinds (``bot.outbox.performers``), and a test checks that every
    kind but ``DIRECT``, which the outbox sends itself, has exactly one."""

    QUESTION = "question"
    THREAD = "thread"
    HINT = "hint"
    FOLLOW_UPS = "follow_ups"
    OUTLINE = "outline"
    # the waiting blind answers of a round closed before its reveal (see bot.blind.posts)
    BLIND_ANSWERS = "blind_answers"
    RECAP = "recap"  # a weekly recap, hung on the last round it reports (see bot.recaps.recap)
    DIRECT = "direct"  # a stored card posted to a member's DM channel (practice, reminders)
    # a channel's weekly mock-interview pairing: matched when performed, then its intros and
    # briefs queued as direct actions (see bot.pairing.weekly); sends nothing itself
    PAIRING = "pairing"
    # Internal steps of a round, sending nothing themselves: each queues what it decides
    # (the outline, members' notices), so it happens once like any other action.
    REVEAL_DUE = "reveal_due"  # the channel's reveal-after time came: reveal if nobody did
    NOTICE = "notice"  # the question is posted: tell the members who asked
    LAST_CALL = "last_call"  # shortly before the outline is due: remind who has not answered
    BEST_ANSWER = "best_answer"  # the round's best answer, posted in its thread
    # a timed practice session's timer (its last minute, its time up), due then, to a DM
    # channel: it queues what the session still needs then (see bot.practice.timer); the
    # stored value keeps the name it had
    PRACTICE_TIMER = "practice_clock"
    # the answer coach's reading of one answer, beside the loop (see bot.coaching): a
    # direct action to the answer's channel, whose performer asks the operator's model
    COACH = "coach"
    # a round's outline is out: the coach's cards that waited for it go to their members
    COACH_CARDS = "coach_cards"
    # a practice session's outline is queued: the coach's card on its answer follows it, in
    # the order of the member's direct messages (see bot.coaching.practice_reader)
    COACH_PRACTICE_CARD = "coach_practice_card"
    # a channel's past season's champions, posted at the turn of the season, hung on the
    # last round of the season (see bot.seasons.turns)
    SEASON = "season"


def action_key(round_id: int, kind: ActionKind) -> str:
    """The outbox key of a round's action: unique, and attached to what is sent."""
    return f"round:{round_id}:{kind.value}"


@dataclass(frozen=True, slots=True)
class LaterAction:
    """A round's action that falls due after its creation (the reveal-after time, the last
    call), queued with the round; its key is ``action_key`` and ``suffix``."""

    kind: ActionKind
    due: datetime
    suffix: str = ""


class ActionState(StrEnum):
    """Where an outbox action stands: pending, done or failed."""

    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


class AnswerOutcome(StrEnum):
    """What recording a reply did: a first answer, a later one, or a duplicate delivery."""

    SCORED = "scored"  # the member's first answer in the round
    KEPT = "kept"  # a later answer by the same member: text kept, no points
    DUPLICATE = "duplicate"  # the same event or platform message seen before


class SeasonLength(StrEnum):
    """How long a channel's seasons are (``/quiz config seasons``), or off."""

    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class ChannelSettings:
    """A channel's quiz: where it is and how it behaves (schedule, topics, reveal, grace)."""

    id: int
    ref: ChannelRef
    timezone: str
    schedule: str | None = None  # the spec as an admin typed it, e.g. "weekdays 09:30"
    topics: TopicChoice = EVERY_TOPIC
    reveal_emoji: str = "💡"
    reveal_min_reactors: int = 1
    followup_policy: FollowUpPolicy = FollowUpPolicy.AFTER_FIRST_ANSWER
    grace_hours: float = 6.0
    paused: bool = False
    disabled_reason: str | None = None
    answer_mode: AnswerMode = AnswerMode.THREAD
    difficulty: Difficulty | None = None  # None: any (questions without one too)
    reveal_after_minutes: int | None = None  # None: revealed by members or the next question
    last_call_minutes: int | None = None  # None: no last call
    ping: str | None = None  # a Discord role or Slack user group the question mentions
    reviews_named: bool = False  # an answer's author is told who reviewed it
    coach: bool = False  # an admin turned the answer coach on here (/quiz config coach on)
    seasons: SeasonLength = SeasonLength.MONTHLY  # how long the channel's seasons are
    season_role: str | None = None  # a role or user group the champions are told to claim

    def is_scheduled(self) -> bool:
        """Scheduled questions are due here: a schedule, not paused, not disabled."""
        return bool(self.schedule) and not self.paused and not self.disabled_reason


@dataclass(frozen=True, slots=True)
class Round:
    """One question asked in a channel, with its platform references and state."""

    id: int
    channel_id: int
    question_id: int
    number: int  # 1, 2, 3 ... within the channel
    scheduled_for: datetime
    scheduled: bool  # a scheduled slot (counts for streaks) rather than /quiz now
    state: RoundState
    created_at: datetime
    revealed_at: datetime | None = None
    question_message: str | None = None  # platform message id of the posted question
    thread: str | None = None  # platform thread id
    closed_at: datetime | None = None
    skipped_at: datetime | None = None  # closed with `/quiz skip` before its reveal


@dataclass(frozen=True, slots=True)
class OutboxDraft:
    """An action to queue, with its outbox key: a round's (``round_id``), or a direct one
    (no round; ``destination`` and the ``card`` to post there, see :func:`direct_draft`)."""

    round_id: int | None
    kind: ActionKind
    key: str  # deterministic, e.g. "round:42:question"; unique in the outbox
    destination: ChannelRef | None = None
    card: Card | None = None
    due: datetime | None = None  # when it may be performed; None: as soon as it is queued


def direct_draft(destination: ChannelRef, card: Card, key: str) -> OutboxDraft:
    """An action posting ``card`` to ``destination`` (a member's DM channel) once, under
    ``key`` (e.g. "practice:7:outline"): it belongs to no round."""
    return OutboxDraft(None, ActionKind.DIRECT, key, destination, card)


@dataclass(frozen=True, slots=True)
class PruneBatch:
    """One batch of a retention pass: rows deleted, and whether more may be left."""

    deleted: int
    more: bool


@dataclass(frozen=True, slots=True)
class OutboxAction:
    """A queued action with its attempts, last error and result. A direct action has no
    round; it carries its destination and card instead."""

    id: int
    round_id: int | None
    kind: ActionKind
    key: str
    state: ActionState
    attempts: int
    next_attempt_at: datetime
    result_ref: str | None = None
    last_error: str | None = None
    destination: ChannelRef | None = None
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """An inbound event's id, recorded in the same transaction as the effect it had, so
    a redelivery is known by it (``processed_events``)."""

    platform: str
    event_id: str


@dataclass(frozen=True, slots=True)
class Revealed:
    """A round just revealed, as stored, and its pending actions oldest first (those the
    reveal queued and any still waiting): what the outbox needs, without reading it back."""

    round: Round
    pending: tuple[OutboxAction, ...]


@dataclass(frozen=True, slots=True)
class AnswerDraft:
    """A reply to record as an answer, with the points it can earn."""

    event_id: str
    platform: str
    round_id: int
    channel_id: int
    member_id: int
    message_id: str
    text: str
    at: datetime
    points_for_answer: int
    bonus_before_reveal: int


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """What recording an answer did, and the answer's id."""

    outcome: AnswerOutcome
    answer_id: int | None = None
    before_reveal: bool = False


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """A stored answer with its member's name, points and votes."""

    id: int
    round_id: int
    member_id: int
    member_name: str
    message_id: str
    text: str
    answered_at: datetime
    before_reveal: bool
    scoring: bool
    points: int
    votes: int


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One member's line on a leaderboard."""

    rank: int
    member_id: int
    member_name: str
    points: int
    answers: int
    quality_points: int = 0  # of the points: those for key points others judged covered


@dataclass(frozen=True, slots=True)
class ChannelStats:
    """A channel's totals: rounds, answers, members, votes and outbox state."""

    rounds: int
    answers: int  # scoring answers only: a member's first in each round, as boards count them
    members: int
    votes: int
    revealed_rounds: int
    pending_actions: int
    failed_actions: int


@dataclass(frozen=True, slots=True)
class MemberHistory:
    """What ``/quiz me`` needs from the store for one member in one channel."""

    points: int
    answers: int
    rank: int | None
    answers_per_topic: dict[str, int] = field(default_factory=dict)
    scheduled_round_ids: tuple[int, ...] = ()  # the channel's scheduled rounds, oldest first
    answered_round_ids: frozenset[int] = frozenset()
    scheduled_round_times: tuple[datetime, ...] = ()  # their slots, as scheduled_round_ids
    skipped_round_ids: frozenset[int] = frozenset()  # those closed with `/quiz skip`
