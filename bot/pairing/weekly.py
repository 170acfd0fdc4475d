"""WeeklyPairings: each channel's pairing slot, the pairing recorded once, and performed.

Each channel's slot is stored; replicas sharing a store each plan every channel's slot,
and one changed through another replica reaches this one through :meth:`stored`
(``bot.channel_sync``), so the channel is paired whichever replica is up at its slot. A
slot that fires is checked against the stored setting first: one planned before pairing
was turned off or moved elsewhere pairs nobody.

A pairing slot (or ``/quiz pair now``) records the channel's pairing of that ISO week and
its outbox action in one transaction, keyed ``pair:<channel>:<week>``: a slot handled
twice (a restart, catch-up and the scheduler, two replicas) records it once. The outbox
performs the action once: it matches the members opted in and not away (storing the
groups before anything is sent, so a retry after a crash finds the same groups), opens
each group's shared conversation and queues its intro and each interviewer's brief as
direct actions keyed per group and member, sent once each.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.kernel.clock import Clock
from bot.kernel.log_context import about
from bot.kernel.models import ActionKind, ChannelSettings, OutboxAction, OutboxDraft
from bot.kernel.outbox_queue import OutboxQueue
from bot.kernel.platform import DirectMessages, Platform, SharedConversations
from bot.kernel.refs import ChannelRef, MemberRef
from bot.kernel.stores import ChannelStore
from bot.learning.service import LearningService
from bot.pairing.cards import brief_card, intro_card
from bot.pairing.matching import Candidate, PairHistory, pair
from bot.pairing.schedule import (
    DEFAULT_SETTING,
    PairSetting,
    StoredPairing,
    iso_week,
    pairing_key,
    pairing_plan,
)
from bot.pairing.store import PairGroup, PairingDue, PairMember, PairStore
from bot.scheduling.schedule_spec import ScheduleError
from bot.scheduling.slot_arithmetic import missed_slot, previous_slot
from bot.scheduling.slot_plans import SlotPlan
from bot.scheduling.zone_groups import Alike, alike, keep_own_settings, planned, zone_groups
from questions.pack import Question

log = logging.getLogger(__name__)
NOT_SEEN_FOR = timedelta(days=7)  # a brief's question: none the partner saw this recently

# Whether a member is away on a local date (their away aggregate, once it exists).
IsAway = Callable[[int, date], Awaitable[bool]]


async def never_away(member_id: int, day: date) -> bool:
    """The default: nobody is ever away."""
    return False


class WeeklyPairings:
    """Each channel's weekly pairing: its slot, recording it once, performing it."""

    def __init__(
        self,
        *,
        pairs: PairStore,
        channels: ChannelStore,
        learning: LearningService,
        question_for: Callable[[ChannelRef, int], Question | None],
        question_topics: Callable[[], Mapping[int, str]],
        outbox: OutboxQueue,
        clock: Clock,
        wake_outbox: Callable[[], None],
        is_away: IsAway = never_away,
    ) -> None:
        self._pairs = pairs
        self._channels = channels
        self._learning = learning
        self._question_for = question_for
        self._question_topics = question_topics
        self._outbox = outbox
        self._clock = clock
        self._wake_outbox = wake_outbox
        self.is_away = is_away
        self._settings: dict[int, PairSetting] = {}

    # settings

    async def load(self, channels: Iterable[ChannelSettings]) -> None:
        stored = await self._pairs.pair_schedules()
        own = {channel_id: PairSetting(*known) for channel_id, known in stored.items()}
        keep_own_settings(self._settings, own, channels)

    def setting(self, channel_id: int) -> PairSetting:
        return self._settings.get(channel_id, DEFAULT_SETTING)

    async def change(self, channel_id: int, setting: PairSetting) -> None:
        await self._pairs.set_pair_schedule(channel_id, setting.enabled, setting.schedule)
        self._settings[channel_id] = setting

    async def read_stored(self, channel_id: int) -> StoredPairing | None:
        """The channel and its pairing slot as stored now (None: no such channel)."""
        channel = await self._channels.get_channel_by_id(channel_id)
        if channel is None:
            return None
        return StoredPairing(channel, await self._stored_setting(channel_id))

    def stored(self, stored: StoredPairing) -> None:
        """Another replica changed the channel's pairing slot: keep it as stored now (the
        caller plans the channel's pairing job again)."""
        self._settings[stored.channel.id] = stored.setting

    async def _stored_setting(self, channel_id: int) -> PairSetting:
        stored = await self._pairs.pair_schedule(channel_id)
        return PairSetting() if stored is None else PairSetting(*stored)

    def topics(self) -> list[str]:
        """The topics a brief's question may be of (those of private practice)."""
        return sorted(set(self._question_topics().values()))

    def plan(self, channel: ChannelSettings) -> SlotPlan | None:
        return self._plan_with(channel, self.setting(channel.id))

    def plan_groups(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str]
    ) -> Iterator[tuple[SlotPlan, list[int]]]:
        """Every channel's pairing plan at once (start-up), beside the channels it is for."""
        return ((plan, same.ids) for plan, same in self._planned(channels, platforms))

    def _planned(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str] | None
    ) -> Iterator[tuple[SlotPlan, Alike[PairSetting]]]:
        """One plan for each zone's channels on the default pairing, one for each channel
        with a pairing slot of its own (the channels of ``platforms``; None: of every
        platform)."""
        alikes = alike(zone_groups(channels, platforms), self._settings, DEFAULT_SETTING)
        return planned(alikes, self._plan_with)

    def _plan_with(self, channel: ChannelSettings, setting: PairSetting) -> SlotPlan | None:
        try:
            return pairing_plan(channel, setting)
        except ScheduleError as problem:
            log.error("no pairing: %s", problem, extra=about(channel.ref))
            return None

    # slots

    async def on_slot(self, channel_id: int, slot: datetime) -> None:
        """A pairing slot fired: record the channel's pairing of the slot's week, if the
        slot is still the channel's as stored (another replica may have turned pairing off
        or moved it since this one planned the slot, and not told this one yet)."""
        channel = await self._channels.get_channel_by_id(channel_id)
        if channel is None:
            return
        self._settings[channel_id] = await self._stored_setting(channel_id)
        plan = self.plan(channel)
        if plan is None:
            log.info("pairing slot %s: pairing is off", slot, extra=about(channel.ref))
            return
        if previous_slot(plan.spec, plan.tz, slot) != slot:
            log.info("pairing slot %s: the slot changed; not used", slot, extra=about(channel.ref))
            return
        await self.record(channel, slot)

    async def catch_up(
        self, channels: Sequence[ChannelSettings], platforms: Collection[str] | None = None
    ) -> None:
        """After downtime: each channel's last pairing slot within its grace window (a
        week already paired is recorded once, so asking again changes nothing); the
        channels of ``platforms`` (None: of every platform).

        What is due depends on the pairing's schedule, zone and grace only: worked out once
        for each zone's channels on the default pairing, not for each of 10,000 channels;
        and the pairings due are recorded in one transaction, not one a channel."""
        now = self._clock.now()
        due: list[tuple[ChannelSettings, PairingDue]] = []
        for plan, same in self._planned(channels, platforms):
            slot = missed_slot(plan.spec, plan.tz, now, plan.grace, None).post
            if slot is not None:
                due += ((channel, _pairing_due(channel, slot)) for channel in same.channels)
        recorded = await self._pairs.record_pairings([pairing for _, pairing in due], now)
        for channel, pairing in due:
            if pairing.key in recorded:
                log.debug("pairing of %s recorded late", pairing.week, extra=about(channel.ref))
        if recorded:
            log.info(
                "pairings of %d channel(s) missed while down, within the grace window, recorded",
                len(recorded),
            )
            self._wake_outbox()

    async def record(self, channel: ChannelSettings, moment: datetime) -> bool:
        """Record the channel's pairing of ``moment``'s ISO week and its outbox action;
        False when that week's is recorded already."""
        due = _pairing_due(channel, moment)
        if not await self._pairs.record_pairing(
            channel.id, due.week, due.key, due.action, self._clock.now()
        ):
            return False
        log.info("pairing of %s recorded", due.week, extra=about(channel.ref))
        self._wake_outbox()
        return True

    # performing

    async def perform(self, platform: Platform, action: OutboxAction) -> None:
        """The outbox performs a pairing: match (once), open each group's conversation,
        queue its intro and briefs. Raises to be retried; each step done is kept."""
        groups = await self._pairs.pairing_groups(action.key)
        channel_id, week = _parse_key(action.key)
        channel = await self._channels.get_channel_by_id(channel_id)
        if groups is None or channel is None:
            log.warning("pairing %s: no such pairing or channel; nothing done", action.key)
            return
        members = {m.member_id: m for m in await self._pairs.pair_members(channel.id)}
        if not groups:
            matched = await self._match(channel, week, list(members.values()), action.key)
            groups = await self._pairs.store_groups(action.key, matched, self._clock.now())
            log.info("pairing of %s: %d group(s)", week, len(groups), extra=about(channel.ref))
        for group in groups:
            await self._meet(platform, channel, group, members, week, again=action.attempts > 1)

    async def _match(
        self, channel: ChannelSettings, week: str, opted: list[PairMember], key: str
    ) -> list[tuple[int, ...]]:
        now = self._clock.now()
        today = now.astimezone(ZoneInfo(channel.timezone)).date()
        candidates = []
        for member in opted:
            if member.skip_week == week or await self.is_away(member.member_id, today):
                continue
            offset = now.astimezone(ZoneInfo(member.timezone)).utcoffset()
            hours = 0.0 if offset is None else offset.total_seconds() / 3600
            candidates.append(Candidate(member.member_id, frozenset(member.topics), hours))
        history = PairHistory(await self._pairs.past_partners(channel.id))
        return pair(candidates, history, seed=zlib.crc32(key.encode()))

    async def _meet(
        self,
        platform: Platform,
        channel: ChannelSettings,
        group: PairGroup,
        members: Mapping[int, PairMember],
        week: str,
        *,
        again: bool = False,
    ) -> None:
        """The group's conversation opened (once: kept on the group; ``again``, on a retry,
        the platform finds one an earlier attempt opened), its intro and the briefs queued
        (once each: keyed by group and member)."""
        people = [members.get(m) for m in group.members]
        if any(p is None for p in people):
            log.info("pair group %d: a member opted out since; no intro", group.id)
            return
        group_members = [p for p in people if p is not None]
        names = [p.name or p.member for p in group_members]
        refs = [_member_ref(channel, p) for p in group_members]
        where = group.conversation
        if where is None and isinstance(platform, SharedConversations):
            title = f"Mock interview {week}: " + " & ".join(names)
            where = await platform.open_shared(
                channel.ref, refs, title[:100], key=f"pair:{group.id}:room", again=again
            )
            await self._pairs.set_conversation(group.id, where)
        if where is not None:
            await self._outbox.send_direct(where, intro_card(names, week), f"pair:{group.id}:intro")
        for at, interviewer in enumerate(group_members):
            candidate = group_members[(at + 1) % len(group_members)]
            question = await self._brief_question(channel, group, interviewer, candidate)
            direct = await self._direct_of(platform, channel, interviewer)
            if question is None or direct is None:
                log.info("pair group %d: no brief for member %d", group.id, interviewer.member_id)
                continue
            card = brief_card(candidate.name or candidate.member, question, week)
            await self._outbox.send_direct(
                direct, card, f"pair:{group.id}:brief:{interviewer.member_id}"
            )

    async def _brief_question(
        self,
        channel: ChannelSettings,
        group: PairGroup,
        interviewer: PairMember,
        candidate: PairMember,
    ) -> Question | None:
        question_id = await self._pairs.brief_question(group.id, candidate.member_id)
        if question_id is None:
            question_id = await self.choose_question(channel, candidate)
            if question_id is None:
                return None
            await self._pairs.set_brief(
                group.id, candidate.member_id, interviewer.member_id, question_id
            )
            # the stored choice wins (a retry that chose otherwise asks the first one)
            question_id = await self._pairs.brief_question(group.id, candidate.member_id)
        return None if question_id is None else self._question_for(channel.ref, question_id)

    async def choose_question(self, channel: ChannelSettings, candidate: PairMember) -> int | None:
        """The question to interview ``candidate`` on, by their memory model: of their
        topics (the channel's if they chose none, or none of theirs is left), none they
        graded or the channel asked in the last 7 days; the most overdue card first, then
        the weakest (least stable), then one they never graded (a different one for each
        member and day)."""
        now = self._clock.now()
        wanted = set(candidate.topics)
        recent = await self._pairs.recent_round_questions(channel.id, now - NOT_SEEN_FOR)
        cards = await self._learning.store.member_cards(candidate.member_id)
        eligible = []
        for question_id, topic in sorted(self._question_topics().items()):
            off = topic not in wanted if wanted else not channel.topics.allows(topic)
            if off or question_id in recent:
                continue
            question = self._question_for(channel.ref, question_id)
            if question is None:
                continue
            card = cards.get(question_id)
            if card is not None and card.last_review > now - NOT_SEEN_FOR:
                continue
            eligible.append(question_id)
        if not eligible and candidate.topics:  # none of their topics is left to ask
            return await self.choose_question(channel, replace(candidate, topics=()))
        due = sorted((cards[q].due, q) for q in eligible if q in cards and cards[q].due <= now)
        if due:
            return due[0][1]
        weakest = sorted((cards[q].stability, q) for q in eligible if q in cards)
        if weakest:
            return weakest[0][1]
        never = [q for q in eligible if q not in cards]
        if not never:
            return None
        return never[zlib.crc32(f"{candidate.member_id}:{now.date()}".encode()) % len(never)]

    async def _direct_of(
        self, platform: Platform, channel: ChannelSettings, member: PairMember
    ) -> ChannelRef | None:
        if member.direct is not None:
            return ChannelRef(channel.ref.platform, channel.ref.workspace, member.direct, "")
        if isinstance(platform, DirectMessages):
            return await platform.open_direct(_member_ref(channel, member))
        return None


def _pairing_due(channel: ChannelSettings, moment: datetime) -> PairingDue:
    """The channel's pairing of ``moment``'s ISO week (in the channel's zone)."""
    week = iso_week(moment, ZoneInfo(channel.timezone))
    key = pairing_key(channel.id, week)
    return PairingDue(
        channel.id, week, key, OutboxDraft(None, ActionKind.PAIRING, key, channel.ref)
    )


def _member_ref(channel: ChannelSettings, member: PairMember) -> MemberRef:
    return MemberRef(channel.ref.platform, channel.ref.workspace, member.member, member.name)


def _parse_key(key: str) -> tuple[int, str]:
    """``pair:<channel>:<week>`` -> (channel id, week)."""
    _, channel, week = key.split(":", 2)
    return int(channel), week
