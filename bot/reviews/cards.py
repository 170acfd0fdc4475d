"""What members read of reviews: the round's answers to review, a review told to its
author, how one judges oneself against one's reviewers, and the best answer."""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.cards import info
from bot.kernel.models import AnswerRecord, Round
from bot.kernel.render import Card, CardKind, Field
from bot.reviews.rubric import SCORES, score_label
from bot.reviews.store import ReviewedAnswer, StoredReview

EXCERPT = 80
RUBRIC = ", ".join(f"{score} {words}" for score, words in SCORES.items())
CALIBRATION_MINIMUM = 3  # answers with reviews before /quiz me compares grades


def _excerpt(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= EXCERPT else line[: EXCERPT - 1].rstrip() + "…"


def answers_card(round_: Round, answers: Sequence[AnswerRecord]) -> Card:
    """The round's answers, numbered as `/quiz rate #N` takes them."""
    if not answers:
        return info(f"Question #{round_.number}", "No answers to review yet.")
    lines = [
        f"#{number} {answer.member_name}: “{_excerpt(answer.text)}”"
        for number, answer in enumerate(answers, start=1)
    ]
    return info(
        f"Answers to question #{round_.number}",
        "\n".join(lines)
        + f"\n\nReview one: `/quiz rate #N SCORE [COMMENT]`, SCORE from 1 to 4 ({RUBRIC}).",
    )


def reviewed_card(number: int, answer: AnswerRecord, review: StoredReview, replaced: bool) -> Card:
    earned = f" It earned you {review.points} points." if review.points else ""
    again = "Your review replaces your earlier one." if replaced else "Thanks for the review."
    return info(
        f"Review of answer #{number} saved",
        f"{answer.member_name}'s answer: {score_label(review.score)}. {again}{earned}"
        f" {answer.member_name} is told privately.",
    )


def told_author_card(round_: Round, review: StoredReview, covered_total: int, named: bool) -> Card:
    """The private message to an answer's author about a review of it."""
    who = review.reviewer_name if named else "A teammate"
    fields = [Field("Score", score_label(review.score), inline=True)]
    if review.covered is not None and covered_total:
        fields.append(
            Field("Key points covered", f"{len(review.covered)} of {covered_total}", inline=True)
        )
    if review.comment:
        fields.append(Field("Comment", review.comment))
    return Card(
        title=f"Your answer to question #{round_.number} was reviewed",
        body=f"{who} reviewed your answer.",
        fields=tuple(fields),
        footer="Reviews never change your points. Grade yourself too: `/quiz grade`.",
        kind=CardKind.INFO,
    )


def reviews_card(number: int, reviews: Sequence[StoredReview], *, admin: bool) -> Card:
    """An answer's reviews: an admin sees each with its writer and number (to remove one)."""
    if not reviews:
        return info(f"Answer #{number}", "No reviews yet.")
    lines = []
    for index, review in enumerate(reviews, start=1):
        who = f"r{index} {review.reviewer_name}: " if admin else ""
        comment = f" — {review.comment}" if review.comment else ""
        lines.append(f"{who}{score_label(review.score)}{comment}")
    footer = "Remove one: `/quiz rate #N remove rK`." if admin else ""
    return Card(title=f"Reviews of answer #{number}", body="\n".join(lines), footer=footer)


def best_answer_card(answer: AnswerRecord) -> Card:
    return Card(
        title=f"Best answer: {answer.member_name}",
        body=answer.text,
        footer="Marked by an admin as this round's best answer.",
        kind=CardKind.INFO,
    )


def calibration(answers: Sequence[ReviewedAnswer]) -> str | None:
    """How the member's own grades compare with their reviewers' scores, once at least
    CALIBRATION_MINIMUM answers with reviews also have the member's own grade."""
    pairs = [(a.own, sorted(a.scores)[(len(a.scores) - 1) // 2]) for a in answers if a.own]
    if len(pairs) < CALIBRATION_MINIMUM:
        return None
    gap = sum(own - median for own, median in pairs if own is not None) / len(pairs)
    if abs(gap) < 0.25:
        verdict = "your own grades match your reviewers'"
    else:
        size = _grades(abs(gap))
        side = "above" if gap > 0 else "below"
        verdict = f"you grade yourself about {size} {side} your reviewers"
    return f"{verdict} (over {len(pairs)} reviewed answers)."


def _grades(amount: float) -> str:
    halves = round(amount * 2) / 2
    if halves <= 0.5:
        return "half a grade"
    if halves == 1:
        return "one grade"
    return f"{halves:g} grades"
