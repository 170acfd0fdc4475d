"""Rows of the schema turned into the domain records of ``bot.kernel.models`` and back."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from bot.kernel.models import (
    ActionKind,
    ActionState,
    AnswerMode,
    AnswerRecord,
    ChannelSettings,
    FollowUpPolicy,
    OutboxAction,
    OutboxDraft,
    Round,
    RoundState,
    SeasonLength,
)
from bot.kernel.refs import ChannelRef
from bot.kernel.stored_cards import card_from_json, card_to_json
from bot.kernel.topic_choice import TopicChoice
from questions.pack import Difficulty
from storage.sql.session import Row
from storage.timestamps import from_db, optional_from_db, to_db

CHANNEL_COLUMNS = (
    "id, platform, workspace, channel, name, timezone, schedule, topics, reveal_emoji, "
    "reveal_min_reactors, followup_policy, grace_hours, paused, disabled_reason, answer_mode, "
    "difficulty, reveal_after_minutes, last_call_minutes, ping, reviews_named, coach, seasons, "
    "season_role"
)
ROUND_COLUMNS = (
    "id, channel_id, question_id, number, scheduled_for, scheduled, state, created_at, "
    "revealed_at, question_message, thread, closed_at, skipped_at"
)
OUTBOX_COLUMNS = (
    "id, round_id, kind, key, state, attempts, next_attempt_at, result_ref, last_error, "
    "target_platform, target_workspace, target_channel, card"
)
# Selected from ``answers a JOIN members m ON m.id = a.member_id``.
ANSWER_COLUMNS = (
    "a.id, a.round_id, a.member_id, m.display_name, m.member, a.message_id, a.text, "
    "a.answered_at, a.before_reveal, a.scoring, a.points, a.votes"
)


# A dict lookup instead of calling the enum (a few microseconds each, for each of 10,000
# channels read at start-up); an unknown value still raises the enum's ValueError.
_POLICIES = {policy.value: policy for policy in FollowUpPolicy}
_ANSWER_MODES = {mode.value: mode for mode in AnswerMode}
_SEASON_LENGTHS = {length.value: length for length in SeasonLength}
_DIFFICULTIES = {level.value: level for level in Difficulty}


def difficulty_from_db(value: str | None) -> Difficulty | None:
    """A stored difficulty (NULL: any)."""
    return None if value is None else _DIFFICULTIES.get(value) or Difficulty(value)


@functools.lru_cache(maxsize=256)
def topic_choice_from_db(stored: str) -> TopicChoice:
    """A channel's stored topics: ``{"off": [...]}`` or ``{"only": [...]}``; a plain list,
    as stored before new topics joined enabled, is the only topics on (what it meant). One value for
    every channel with the same choice."""
    value = json.loads(stored)
    if isinstance(value, list):
        return TopicChoice(only=frozenset(value))
    if "only" in value:
        return TopicChoice(only=frozenset(value["only"]))
    return TopicChoice(off=frozenset(value["off"]))


def topic_choice_to_db(choice: TopicChoice) -> str | None:
    """NULL for every topic, new ones too (the channel's admins chose nothing)."""
    if not choice.customised:
        return None
    if choice.only is not None:
        return json.dumps({"only": sorted(choice.only)})
    return json.dumps({"off": sorted(choice.off)})


# The channel strings that repeat from row to row (a workspace, zone, schedule or emoji is
# shared by many channels), kept once: 10,000 channels read at start-up held a copy each.
_shared = sys.intern
_EVERY_TOPIC = TopicChoice()  # one value for the channels that chose no topics


_CHANNEL_COLUMN_NAMES = tuple(CHANNEL_COLUMNS.split(", "))


def channel_from_row(row: Row) -> ChannelSettings:
    """A channel from a row (or mapping) with the channel columns, read by name."""
    return channel_from_columns([row[name] for name in _CHANNEL_COLUMN_NAMES])


def channel_from_columns(columns: Row | Sequence[Any]) -> ChannelSettings:
    """A channel from a row of ``CHANNEL_COLUMNS`` in their order, read by position: a
    column read by name is a search of the row's names, 20 a row for each of the 10,000
    channels start-up reads."""
    (
        id_,
        platform,
        workspace,
        channel,
        name,
        timezone,
        schedule,
        topics,
        reveal_emoji,
        reveal_min_reactors,
        followup_policy,
        grace_hours,
        paused,
        disabled_reason,
        answer_mode,
        difficulty,
        reveal_after_minutes,
        last_call_minutes,
        ping,
        reviews_named,
        coach,
        seasons,
        season_role,
    ) = columns
    return _channel(
        id_,
        ChannelRef(_shared(platform), _shared(workspace), channel, name),
        _shared(timezone),
        None if schedule is None else _shared(schedule),
        _EVERY_TOPIC if topics is None else topic_choice_from_db(topics),
        _shared(reveal_emoji),
        reveal_min_reactors,
        _POLICIES.get(followup_policy) or FollowUpPolicy(followup_policy),
        grace_hours,
        bool(paused),
        disabled_reason,
        _ANSWER_MODES.get(answer_mode) or AnswerMode(answer_mode),
        difficulty_from_db(difficulty),
        reveal_after_minutes,
        last_call_minutes,
        ping,
        bool(reviews_named),
        bool(coach),
        _SEASON_LENGTHS.get(seasons) or SeasonLength(seasons),
        season_role,
    )


# ChannelSettings' fields' slots, in the order of its fields: a frozen dataclass's
# ``__init__`` sets each through ``object.__setattr__`` after matching its arguments, half
# of building each of the 10,000 channels a start reads. ``_channel`` sets them directly
# (ChannelSettings has no ``__post_init__``; a test checks the two build equal values).
_CHANNEL_SLOTS = tuple(getattr(ChannelSettings, field.name) for field in fields(ChannelSettings))


def _channel(*values: Any) -> ChannelSettings:
    """A ChannelSettings of ``values``, one for each field in their order."""
    channel = object.__new__(ChannelSettings)
    for slot, value in zip(_CHANNEL_SLOTS, values, strict=True):
        slot.__set__(channel, value)
    return channel


def channel_values(settings: ChannelSettings) -> dict[str, Any]:
    """Named parameters of the channel columns other than ``id``."""
    return {
        "platform": settings.ref.platform,
        "workspace": settings.ref.workspace,
        "channel": settings.ref.channel_id,
        "name": settings.ref.name,
        "timezone": settings.timezone,
        "schedule": settings.schedule,
        "topics": topic_choice_to_db(settings.topics),
        "reveal_emoji": settings.reveal_emoji,
        "reveal_min_reactors": settings.reveal_min_reactors,
        "followup_policy": settings.followup_policy.value,
        "grace_hours": settings.grace_hours,
        "paused": int(settings.paused),
        "disabled_reason": settings.disabled_reason,
        "answer_mode": settings.answer_mode.value,
        "difficulty": None if settings.difficulty is None else settings.difficulty.value,
        "reveal_after_minutes": settings.reveal_after_minutes,
        "last_call_minutes": settings.last_call_minutes,
        "ping": settings.ping,
        "reviews_named": int(settings.reviews_named),
        "coach": int(settings.coach),
        "seasons": settings.seasons.value,
        "season_role": settings.season_role,
    }


def round_from_row(row: Row) -> Round:
    return Round(
        id=row["id"],
        channel_id=row["channel_id"],
        question_id=row["question_id"],
        number=row["number"],
        scheduled_for=from_db(row["scheduled_for"]),
        scheduled=bool(row["scheduled"]),
        state=RoundState(row["state"]),
        created_at=from_db(row["created_at"]),
        revealed_at=optional_from_db(row["revealed_at"]),
        question_message=row["question_message"],
        thread=row["thread"],
        closed_at=optional_from_db(row["closed_at"]),
        skipped_at=optional_from_db(row["skipped_at"]),
    )


def action_from_row(row: Row) -> OutboxAction:
    return OutboxAction(
        id=row["id"],
        round_id=row["round_id"],
        kind=ActionKind(row["kind"]),
        key=row["key"],
        state=ActionState(row["state"]),
        attempts=row["attempts"],
        next_attempt_at=from_db(row["next_attempt_at"]),
        result_ref=row["result_ref"],
        last_error=row["last_error"],
        destination=(
            None
            if row["target_channel"] is None
            else ChannelRef(row["target_platform"], row["target_workspace"], row["target_channel"])
        ),
        card=None if row["card"] is None else card_from_json(row["card"]),
    )


def draft_row(
    draft: OutboxDraft, now: str
) -> tuple[int | None, str, str, str | None, str | None, str | None, str | None, str]:
    """The draft's (round_id, kind, key, target platform, workspace, channel, card JSON,
    first attempt time), ``now`` its time when it is due at once."""
    where = draft.destination
    return (
        draft.round_id,
        draft.kind.value,
        draft.key,
        None if where is None else where.platform,
        None if where is None else where.workspace,
        None if where is None else where.channel_id,
        None if draft.card is None else card_to_json(draft.card),
        now if draft.due is None else to_db(draft.due),
    )


def answer_from_row(row: Row) -> AnswerRecord:
    return AnswerRecord(
        id=row["id"],
        round_id=row["round_id"],
        member_id=row["member_id"],
        member_name=row["display_name"] or row["member"],
        message_id=row["message_id"],
        text=row["text"],
        answered_at=from_db(row["answered_at"]),
        before_reveal=bool(row["before_reveal"]),
        scoring=bool(row["scoring"]),
        points=row["points"],
        votes=row["votes"],
    )
