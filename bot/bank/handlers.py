"""Handlers of `/quiz suggest`, `/quiz review` and `/quiz flag` (see bot.bank.review_desk)."""

from __future__ import annotations

from bot.bank.review_desk import ReviewDesk, no_quiz_to_suggest_to, suggest_form
from bot.commands.handlers import CommandContext
from bot.commands.typed import FlagRound, ReviewDecision, ShowReview, SuggestQuestion
from bot.kernel.render import Response
from bot.rounds import cards


async def suggest(ctx: CommandContext, command: SuggestQuestion) -> Response:
    if ctx.channel is None:
        return no_quiz_to_suggest_to()
    return Response(
        cards.info(
            "Suggest a question",
            "Fill in the form: topic, question, outline, follow-ups and key points.",
        ),
        form=suggest_form(),
    )


async def review(ctx: CommandContext, command: ShowReview | ReviewDecision) -> Response:
    desk = ReviewDesk(ctx.engine)
    if isinstance(command, ShowReview):
        return await desk.queue(ctx.event.channel)
    if ctx.platform is None:
        raise LookupError("/quiz review ran without its platform")
    return await desk.decide(
        command.action,
        command.item,
        command.reason,
        by=ctx.event.member,
        channel=ctx.event.channel,
        platform=ctx.platform,
    )


async def flag(ctx: CommandContext, command: FlagRound) -> Response:
    return await ReviewDesk(ctx.engine).flag(ctx.event.channel, ctx.event.member, command.reason)
