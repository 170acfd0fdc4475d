"""What the platform should have received over a soak, against what it did receive.

Each thing expected has an identity (the day's question of a channel, a member's notice
of a channel's day, a member's reminder of a local date, a channel's recap of a week, its
season's post of a month, a member's pairing brief of a week, ...) and the one moment it
should arrive. Each message received is given its identity from its outbox key, its
destination and when it came; then every identity is counted: missing, received more
than once, at another moment, or not expected at all (which covers a holiday's post and
a message to a member away).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from tests.fakes import Sent
from tests.soak.scenario import (
    LAST_CALL,
    PAIRED,
    PAIRING,
    RECAP,
    REVEAL_AFTER,
    ROLES,
    SUBSCRIBERS,
    Journal,
    SoakChannel,
    SoakPlan,
    answers_of,
    local,
    reveal_of,
)

Identity = tuple[object, ...]
UNCHECKED = "follow-ups"  # posted after the first answer; only counted for duplicates


@dataclass
class SoakResult:
    expected: int = 0
    received: int = 0
    misses: int = 0
    duplicates: int = 0
    wrong_time: int = 0
    unexpected: int = 0
    on_holidays: int = 0  # posts in a channel on its holiday
    to_members_away: int = 0  # direct messages to a member away that day
    last_calls_after_outline: int = 0
    per_kind: Counter[str] = field(default_factory=Counter)  # expected, by kind
    problems: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(self.per_kind.items()))
        return (
            f"expected {self.expected} ({kinds}); received {self.received}; "
            f"misses {self.misses}, duplicates {self.duplicates}, "
            f"at another time {self.wrong_time}, unexpected {self.unexpected} "
            f"(on holidays {self.on_holidays}, to members away {self.to_members_away}, "
            f"last calls after the outline {self.last_calls_after_outline})"
        )


def week_of(moment: datetime, zone: str) -> str:
    year, week, _ = moment.astimezone(ZoneInfo(zone)).isocalendar()
    return f"{year}-W{week:02d}"


def expected_posts(plan: SoakPlan, journal: Journal) -> dict[Identity, datetime]:
    """Every identity the soak should produce, with the moment it should arrive."""
    expected: dict[Identity, datetime] = {}
    holidays = plan.holiday_dates()
    for channel in plan.channels:
        ch = channel.number
        for day in plan.soak_days(channel):
            if day in holidays:
                continue
            slot = channel.slot(day)
            expected[("question", ch, day)] = slot
            n = (day - plan.first_day).days
            reveal = reveal_of(n)
            revealed = None if reveal is None else slot + reveal
            outline = revealed if revealed is not None else slot + REVEAL_AFTER
            if plan.within(outline):
                expected[("outline", ch, day)] = outline
            last_call = slot + REVEAL_AFTER - LAST_CALL
            for role in SUBSCRIBERS:
                member = channel.member(role)
                if not journal.is_away(member, slot, day):
                    expected[("notice", ch, day, member)] = slot
                after = answers_of(n).get(role)
                away = journal.is_away(member, slot, day)
                answered = None if after is None or away else slot + after
                if (
                    plan.within(last_call)
                    and (revealed is None or revealed > last_call)
                    and (answered is None or answered > last_call)
                    and not journal.is_away(member, last_call, day)
                ):
                    expected[("last call", ch, day, member)] = last_call
        rounds = [channel.slot(d) for d in plan.soak_days(channel) if d not in holidays]
        for recap in plan.weekly(channel, RECAP):
            if any(recap - timedelta(days=7) <= slot < recap for slot in rounds):
                expected[("recap", ch, week_of(recap, channel.timezone))] = recap
        for turn, season_start in plan.turns(channel):
            start = local(season_start, time(0), channel.timezone)
            if any(start <= slot < turn for slot in rounds):
                expected[("season", ch, f"{season_start:%Y-%m}")] = turn
        for pairing in plan.weekly(channel, PAIRING):
            day = channel.day_of(pairing)
            present = [
                channel.member(r)
                for r in PAIRED
                if not journal.is_away(channel.member(r), pairing, day)
            ]
            week = week_of(pairing, channel.timezone)
            if len(present) >= 2:
                for member in present:
                    expected[("brief", ch, week, member)] = pairing
                    expected[("intro", ch, week, member)] = pairing
    for (member, day), (slot, due) in journal.reminders.items():
        if due:
            expected[("reminder", member, day)] = slot
    return expected


class Identities:
    """Names each received message by what it is (see the module's docstring)."""

    def __init__(self, plan: SoakPlan) -> None:
        self._channels = {c.ref.channel_id: c for c in plan.channels}
        self._member_channel = {c.member(r): c for c in plan.channels for r in ROLES}
        self._rounds: dict[str, tuple[SoakChannel, date]] = {}

    def learn_round(self, at: datetime, sent: Sent) -> None:
        match = re.fullmatch(r"round:(\d+):question", sent.key)
        channel = self._channels.get(sent.channel.channel_id)
        if match and channel is not None and sent.thread is None:
            self._rounds[match[1]] = (channel, channel.day_of(at))

    def of(self, at: datetime, sent: Sent) -> Identity:
        key, where = sent.key, sent.channel.channel_id
        member = where.removeprefix("D-") if where.startswith("D-") else None
        if match := re.fullmatch(r"round:(\d+):(question|outline|follow_ups)", key):
            kind = {"follow_ups": UNCHECKED}.get(match[2], match[2])
            return (kind, *self._round(match[1]))
        if member and (match := re.fullmatch(r"(notice|lastcall):(\d+):\d+", key)):
            kind = "notice" if match[1] == "notice" else "last call"
            return (kind, *self._round(match[2]), member)
        if member and (match := re.fullmatch(r"remind:\d+:(\d{4}-\d\d-\d\d)", key)):
            return ("reminder", member, date.fromisoformat(match[1]))
        if (match := re.fullmatch(r"recap:\d+:[^:]+", key)) and where in self._channels:
            channel = self._channels[where]
            return ("recap", channel.number, week_of(at, channel.timezone))
        if (match := re.fullmatch(r"season:\d+:(\d{4}-\d\d)", key)) and where in self._channels:
            return ("season", self._channels[where].number, match[1])
        if member and re.fullmatch(r"pair:\d+:brief:\d+", key):
            channel = self._member_channel[member]
            return ("brief", channel.number, week_of(at, channel.timezone), member)
        return ("other", key, where)

    def intro_members(self, at: datetime, sent: Sent) -> list[Identity] | None:
        """An intro names its group in its conversation (``G-ann-bob``): one identity per
        member; None for another message."""
        if not (re.fullmatch(r"pair:\d+:intro", sent.key) and sent.channel.channel_id[:2] == "G-"):
            return None
        names = sent.channel.channel_id[2:].split("-")
        found: list[Identity] = []
        for name in names:
            channel = self._member_channel[name]
            found.append(("intro", channel.number, week_of(at, channel.timezone), name))
        return found

    def _round(self, round_id: str) -> tuple[object, ...]:
        known = self._rounds.get(round_id)
        return ("round?", round_id) if known is None else (known[0].number, known[1])


def check(plan: SoakPlan, journal: Journal, received: list[tuple[datetime, Sent]]) -> SoakResult:
    """Compare what was received with what should have been."""
    result = SoakResult(received=len(received))
    expected = expected_posts(plan, journal)
    result.expected = len(expected)
    result.per_kind = Counter(str(identity[0]) for identity in expected)
    names = Identities(plan)
    for at, sent in received:
        names.learn_round(at, sent)
    got: dict[Identity, list[datetime]] = defaultdict(list)
    keys = Counter((sent.channel.channel_id, sent.key) for _, sent in received)
    for (where, key), count in keys.items():
        if count > 1:
            result.duplicates += count - 1
            result.problems.append(f"{key} in {where}: received {count} times")
    for at, sent in received:
        for identity in names.intro_members(at, sent) or [names.of(at, sent)]:
            got[identity].append(at)
            result.to_members_away += _to_a_member_away(plan, journal, identity, at)
        result.on_holidays += _on_a_holiday(plan, at, sent)
    for identity, moment in sorted(expected.items(), key=lambda item: (item[1], str(item[0]))):
        times = got.get(identity, [])
        if not times:
            result.misses += 1
            result.problems.append(f"missing: {_name(identity)}, due {moment:%a %d %b %H:%M} UTC")
            continue
        if len(times) > 1 and identity[0] in ("intro", "brief"):
            result.duplicates += len(times) - 1  # one member in two groups of one week
            result.problems.append(f"{_name(identity)}: {len(times)} times")
        wrong = [t for t in times if t != moment]
        if wrong:
            result.wrong_time += len(wrong)
            when = ", ".join(f"{t:%a %d %b %H:%M}" for t in wrong)
            result.problems.append(
                f"{_name(identity)}: due {moment:%a %d %b %H:%M}, received {when} UTC"
            )
    for identity, times in got.items():
        if identity not in expected and identity[0] != UNCHECKED:
            result.unexpected += len(times)
            when = ", ".join(f"{t:%a %d %b %H:%M}" for t in times)
            result.problems.append(f"not expected: {_name(identity)}, received {when} UTC")
    _last_calls_before_outlines(got, result)
    if result.on_holidays or result.to_members_away:
        result.problems.append(
            f"{result.on_holidays} post(s) on a holiday, "
            f"{result.to_members_away} direct message(s) to a member away"
        )
    return result


def _on_a_holiday(plan: SoakPlan, at: datetime, sent: Sent) -> bool:
    return any(
        sent.channel.channel_id == c.ref.channel_id and c.day_of(at) in plan.holiday_dates()
        for c in plan.channels
    )


def _to_a_member_away(plan: SoakPlan, journal: Journal, identity: Identity, at: datetime) -> bool:
    """Whether the message is to a member away on its own day (a reminder's local date,
    the channel's date for the rest), as the bot decides it."""
    kind = identity[0]
    if kind == "reminder":
        member, day = str(identity[1]), identity[2]
    elif kind in ("notice", "last call", "brief", "intro"):
        member, day = str(identity[-1]), identity[2]
        if kind in ("brief", "intro"):
            day = next(c.day_of(at) for c in plan.channels if c.number == identity[1])
    else:
        return False
    return isinstance(day, date) and journal.is_away(member, at, day)


def _last_calls_before_outlines(got: dict[Identity, list[datetime]], result: SoakResult) -> None:
    for identity, times in got.items():
        if identity[0] != "last call":
            continue
        outlines = got.get(("outline", *identity[1:3]), [])
        if outlines and max(times) >= min(outlines):
            result.last_calls_after_outline += 1
            result.problems.append(f"{_name(identity)}: after the outline")


def _name(identity: Identity) -> str:
    kind, *rest = identity
    parts = [f"{v:%a %d %b}" if isinstance(v, date) else str(v) for v in rest]
    return f"{kind} " + " ".join(parts)
