"""``/quiz grade``, ``/quiz goal`` and ``/quiz me``: the learning loop as a member sees it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from bot.away.periods import is_away
from bot.away.store import AwayStore
from bot.away.streaks import member_streak, unscheduled_answers
from bot.bank.catalog import workspace_of
from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.clock import Clock
from bot.kernel.errors import BadArgument, Refused
from bot.kernel.grades import GRADE_WORDS, Grade
from bot.kernel.local_dates import local_today
from bot.kernel.members import MemberIds
from bot.kernel.models import Round
from bot.kernel.own_views import MeSectionSource, MeView
from bot.kernel.quoting import quoted
from bot.kernel.render import Response
from bot.learning._cards import current_grade_card, goal_card, mastery_card, me_card, streak_text
from bot.learning.grading import RoundGrading
from bot.learning.neighbours import PracticeGrading
from bot.learning.service import LearningService
from bot.quiz_command.context import NO_QUIZ_YET, CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand
from bot.rounds.store import ReportStore, RoundStore

GOAL_OFF = "off"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

NOTHING_TO_GRADE_HERE = (
    "No practice question is waiting for your grade here: practice with `/quiz practice`"
    " and grade after its sample answer outline. A channel round is graded in its channel,"
    " after the reveal."
)


# A revealed round of the channel can be graded this long after it was asked.
GRADE_WINDOW = timedelta(days=14)
ROUND_NUMBER = re.compile(r"#?(\d{1,9})")


@dataclass(frozen=True, slots=True)
class GradeRound(QuizCommand):
    """A member's grade of a round of the channel (None: show the current one); the round
    by its number, or (None) the latest revealed one."""

    grade: Grade | None
    round_number: int | None = None


@dataclass(frozen=True, slots=True)
class ShowGoal(QuizCommand):
    """``/quiz goal``: the member's goal date."""


@dataclass(frozen=True, slots=True)
class SetGoal(QuizCommand):
    """``/quiz goal YYYY-MM-DD|off``: set or clear the member's goal date."""

    goal: date | None  # None: no goal (practice plans for its no-goal horizons)


@dataclass(frozen=True, slots=True)
class ShowMe(QuizCommand):
    """Show the member's own points, rank, streaks and topics."""


class LearningCommands:
    """The handlers of the learning loop's subcommands."""

    def __init__(
        self,
        *,
        learning: LearningService,
        grading: RoundGrading,
        practice: PracticeGrading[Any],
        sections: Iterable[MeSectionSource],
        members: MemberIds,
        rounds: RoundStore,
        reports: ReportStore,
        away: AwayStore,
        clock: Clock,
        default_timezone: str,
    ) -> None:
        self._away = away
        self._learning = learning
        self._grading = grading
        self._practice = practice
        self._sections = sections
        self._members = members
        self._rounds = rounds
        self._reports = reports
        self._clock = clock
        self._default_timezone = default_timezone

    async def grade(self, ctx: CommandContext, command: GradeRound) -> Response | None:
        session = await self._practice.waiting_for_grade(ctx.event.channel)
        if session is not None and command.grade is not None and ctx.platform is not None:
            await self._practice.grade(ctx.platform, session, command.grade)
            return None  # the confirmation is posted in the DM
        if ctx.event.direct:
            if session is not None:
                return self._practice.how_to_grade()
            raise Refused(NOTHING_TO_GRADE_HERE)
        if ctx.channel is None:
            return Response(info("No quiz here yet", NO_QUIZ_YET))
        round_ = await self._round_to_grade(ctx.quiz.id, command.round_number)
        if command.grade is None:
            member_id = await self._members.member_id(ctx.event.member)
            given = await self._learning.store.round_grades(round_.id)
            return Response(current_grade_card(round_.number, given.get(member_id)))
        return await self._grading.grade(ctx.quiz, round_, ctx.event.member, command.grade)

    async def _round_to_grade(self, channel_id: int, number: int | None) -> Round:
        """The round ``/quiz grade`` means: the one of that number, asked within the
        grading window; or the latest revealed within it, else the latest round (whose
        grade is then refused, saying it is not revealed yet)."""
        since = self._clock.now() - GRADE_WINDOW
        if number is None:
            round_ = await self._rounds.latest_revealed_round(channel_id, since)
            round_ = round_ or await self._rounds.latest_round(channel_id)
            if round_ is None:
                raise Refused("There is no question to grade yet.")
            return round_
        round_ = await self._rounds.round_by_number(channel_id, number)
        if round_ is None:
            raise Refused(f"This channel has no question #{number}.")
        if round_.created_at < since:
            raise Refused(
                f"Question #{number} was asked more than {GRADE_WINDOW.days} days ago: grade"
                f" questions of the last {GRADE_WINDOW.days} days (practise it again with"
                " `/quiz practice`)."
            )
        if round_.skipped_at is not None:
            raise Refused(
                f"Question #{number} was closed with `/quiz skip` and has no outline to grade"
                " against."
            )
        return round_

    async def goal(self, ctx: CommandContext, command: ShowGoal | SetGoal) -> Response:
        now = self._clock.now()
        member_id = await self._members.member_id(ctx.event.member)
        if isinstance(command, SetGoal):
            if command.goal is not None and command.goal <= now.date():
                raise BadArgument(
                    f"{quoted(command.goal.isoformat())} is not after today: give a later date,"
                    " or off."
                )
            await self._learning.set_goal(member_id, command.goal)
        current = await self._learning.store.goal(member_id)
        return Response(goal_card(current, now))

    async def show_me(self, ctx: CommandContext, command: ShowMe) -> Response:
        member_id = await self._members.member_id(ctx.event.member)
        workspace = workspace_of(ctx.event.channel)
        now = self._clock.now()
        mastery = await self._learning.mastery(member_id, now, workspace)
        member = ctx.event.member
        until = await self._away.until(member.workspace, member.member_id)
        if ctx.channel is None:  # outside a quiz channel: private practice only
            name = member.label()
            today = local_today(now, self._default_timezone)
            away = until if is_away(until, today) else None
            return Response(mastery_card(name, mastery, self._default_timezone, away))
        channel = ctx.quiz
        history = await self._reports.member_history(channel.id, member_id)
        open_round = await self._rounds.open_round(channel.id)
        periods = await self._away.periods(member.workspace, [member.member_id])
        current = member_streak(
            history,
            periods.get(member.member_id, ()),
            channel.timezone,
            open_round.id if open_round else None,
        )
        card = me_card(
            ctx.event.member.label(),
            history.points,
            history.answers,
            history.rank,
            streak_text(
                current,
                unscheduled_answers(history),
                scheduled=bool(channel.schedule or history.scheduled_round_ids),
            ),
            history.answers_per_topic,
            mastery,
            channel.timezone,
            until if is_away(until, local_today(now, channel.timezone)) else None,
        )
        view = MeView(channel, member_id, ctx.event.member.label(), now, mastery.target)
        fields, image = list(card.fields), card.image
        for source in self._sections:
            section = await source(view)
            if section is not None:
                fields.extend(section.fields)
                image = section.image or image
        return Response(dataclasses.replace(card, fields=tuple(fields), image=image))


def grade_command(arguments: Arguments) -> GradeRound:
    word = arguments.get("grade")
    number = arguments.get("round")
    return GradeRound(
        None if word is None else Grade.from_word(str(word)),
        None if number is None else int(str(number).lstrip("#")),
    )


def _is_round_number(word: str) -> bool:
    return ROUND_NUMBER.fullmatch(word) is not None


def goal_command(arguments: Arguments) -> ShowGoal | SetGoal:
    if arguments.get("date") is None:
        return ShowGoal()
    word = str(arguments["date"])
    if word.lower() == GOAL_OFF:
        return SetGoal(None)
    try:
        if not ISO_DATE.fullmatch(word):
            raise ValueError(word)
        return SetGoal(date.fromisoformat(word))
    except ValueError:
        raise ValueError(f"{word!r} is not a date: give YYYY-MM-DD or off.") from None


ME = Subcommand(
    "me",
    "your points, rank, streaks, topics and mastery",
    "/quiz me",
    build=lambda _: ShowMe(),
    handler=LearningCommands.show_me,
    needs_channel=False,
    in_direct=True,
)

GRADE = Subcommand(
    "grade",
    "after the reveal, grade your answer (only you see it); ROUND: a question of the last"
    " 14 days, by its number",
    "/quiz grade 12 partly",
    params=(
        Param(
            "round",
            ParamKind.WORD,
            "The question's number (#N on its card); default: the latest revealed",
            metavar="ROUND",
            label="question number",
            recognize=_is_round_number,
        ),
        Param(
            "grade",
            ParamKind.CHOICE,
            "How your answer compared with the outline's key points",
            choices=GRADE_WORDS,
        ),
    ),
    build=grade_command,
    handler=LearningCommands.grade,
    needs_channel=False,
    in_direct=True,
)

GOAL = Subcommand(
    "goal",
    "the date your practice aims at, e.g. an interview (default: two weeks ahead, rolling)",
    "/quiz goal {today+45}",
    params=(
        Param(
            "date",
            ParamKind.WORD,
            "YYYY-MM-DD, or off",
            metavar="YYYY-MM-DD",
            alone=GOAL_OFF,
            label="date",
        ),
    ),
    build=goal_command,
    handler=LearningCommands.goal,
    needs_channel=False,
    in_direct=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(20, ME),
    Listed(30, GRADE),
    Listed(60, GOAL),
)
