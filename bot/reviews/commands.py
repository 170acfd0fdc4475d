"""``/quiz covered``, ``/quiz rate`` and ``/quiz best``: grading from the checklist,
reviewing each other's answers, and the admin's best answer."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.feature import Listed
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand
from bot.reviews.cards import RUBRIC
from bot.reviews.peer import PeerReviews

ANSWER_NUMBER = re.compile(r"#?(\d{1,4})")
REVIEW_NUMBER = re.compile(r"r(\d{1,4})", re.IGNORECASE)
REMOVE = "remove"
NONE_COVERED = "none"


@dataclass(frozen=True, slots=True)
class Covered(QuizCommand):
    """The key points (1-based) the member's answer covered (None: open the checklist)."""

    points: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class ListAnswers(QuizCommand):
    """The latest revealed round's answers, numbered."""


@dataclass(frozen=True, slots=True)
class ShowReviews(QuizCommand):
    """An answer's reviews (an admin sees who wrote each)."""

    answer: int


@dataclass(frozen=True, slots=True)
class Rate(QuizCommand):
    """Review answer #``answer``: a score of 1-4 and a comment."""

    answer: int
    score: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RemoveReview(QuizCommand):
    """Remove one's review of an answer, or (admins) review r``review`` of it."""

    answer: int
    review: int | None = None


@dataclass(frozen=True, slots=True)
class MarkBest(QuizCommand):
    """Mark answer #``answer`` as the round's best."""

    answer: int


class ReviewCommands:
    """The handlers of the checklist, review and best-answer subcommands."""

    def __init__(self, reviews: PeerReviews) -> None:
        self._reviews = reviews

    async def covered(self, ctx: CommandContext, command: Covered) -> Response:
        if command.points is None:
            return await self._reviews.checklist(ctx.quiz)
        return await self._reviews.covered(ctx.quiz, ctx.event.member, command.points)

    async def rate(
        self, ctx: CommandContext, command: ListAnswers | ShowReviews | Rate | RemoveReview
    ) -> Response:
        channel = ctx.quiz
        member = ctx.event.member
        match command:
            case ListAnswers():
                return await self._reviews.answers_to_review(channel)
            case ShowReviews(answer=number):
                admin = await _is_admin(ctx)
                return await self._reviews.show_reviews(channel, number, member, admin=admin)
            case Rate(answer=number, score=score, comment=comment):
                return await self._reviews.rate(
                    ctx.platform, channel, member, number, score, comment
                )
            case RemoveReview(answer=number, review=review):
                admin = await _is_admin(ctx)
                return await self._reviews.remove(
                    channel, number, member, admin=admin, review_number=review
                )
        raise AssertionError(f"unexpected {command!r}")

    async def best(self, ctx: CommandContext, command: MarkBest) -> Response:
        return await self._reviews.best(ctx.quiz, command.answer)


async def _is_admin(ctx: CommandContext) -> bool:
    platform = ctx.platform
    return platform is not None and await platform.is_admin(ctx.event.member, ctx.event.channel)


def answer_number(word: str) -> int:
    match = ANSWER_NUMBER.fullmatch(word.strip())
    if match is None or int(match[1]) == 0:
        raise ValueError(f"{word!r} is not an answer number: give it as #N, such as #2.")
    return int(match[1])


def covered_command(arguments: Arguments) -> Covered:
    words = [str(w) for w in arguments.get("points", ())]  # type: ignore[union-attr]
    if not words:
        return Covered(None)
    if [w.lower() for w in words] == [NONE_COVERED]:
        return Covered(())
    points = []
    for word in words:
        for part in filter(None, word.replace(",", " ").split()):
            if not part.isdecimal() or len(part) > 3:
                raise ValueError(
                    f"{part!r} is not a key point number: give the numbers of the points your"
                    " answer covered, such as 1 3 4, or none."
                )
            points.append(int(part))
    return Covered(tuple(points))


def rate_command(arguments: Arguments) -> ListAnswers | ShowReviews | Rate | RemoveReview:
    if arguments.get("answer") is None:
        return ListAnswers()
    number = answer_number(str(arguments["answer"]))
    score = arguments.get("score")
    rest = str(arguments.get("comment") or "").strip()
    if score is None:
        return ShowReviews(number)
    if str(score).lower() == REMOVE:
        if not rest:
            return RemoveReview(number)
        found = REVIEW_NUMBER.fullmatch(rest)
        if found is None:
            raise ValueError(f"{rest!r} is not a review number: give it as rK, such as r2.")
        return RemoveReview(number, int(found[1]))
    if str(score) not in ("1", "2", "3", "4"):
        raise ValueError(f"{str(score)!r} is not a score: give 1 to 4 ({RUBRIC}), or remove.")
    return Rate(number, int(str(score)), rest)


COVERED = Subcommand(
    "covered",
    "after the reveal, tick the key points your answer covered (alone: the checklist form);"
    " the share proposes your grade",
    "/quiz covered 1 3 4",
    params=(
        Param(
            "points",
            ParamKind.WORDS,
            "The numbers of the key points your answer covered, or none",
            metavar="N",
            label="key point number",
        ),
    ),
    build=covered_command,
    handler=ReviewCommands.covered,
)

RATE = Subcommand(
    "rate",
    f"after the reveal, review a teammate's answer: SCORE {RUBRIC}; +2 points, 3 a round;"
    " the key points you tick (form) earn its author points for quality; alone: the answers"
    " to review",
    "/quiz rate #2 3 clear on the ring steps, missed busbw",
    params=(
        Param("answer", ParamKind.WORD, "The answer's number, #N", metavar="ANSWER"),
        Param(
            "score",
            ParamKind.WORD,
            "1 missed the point, 2 partly, 3 solid, 4 interview-ready; or remove",
            metavar="SCORE",
            needs="answer",
        ),
        Param(
            "comment",
            ParamKind.TEXT,
            "What was good, what was missing (the author reads it)",
            metavar="COMMENT",
            needs="score",
        ),
    ),
    build=rate_command,
    handler=ReviewCommands.rate,
)

BEST = Subcommand(
    "best",
    "mark the round's best answer: posted under the outline, and first in the weekly recap",
    "/quiz best #2",
    params=(
        Param(
            "answer",
            ParamKind.WORD,
            "The answer's number, #N",
            metavar="ANSWER",
            required=True,
            missing="Give the answer's number, such as #2 (`/quiz rate` lists them).",
        ),
    ),
    build=lambda a: MarkBest(answer_number(str(a["answer"]))),
    handler=ReviewCommands.best,
    admin=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(40, COVERED),
    Listed(50, RATE),
    Listed(240, BEST),
)
