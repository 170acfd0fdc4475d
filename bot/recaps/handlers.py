"""``/quiz recap``: show a channel's weekly recap schedule; admins set it or turn it off."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.commands.handlers import CommandContext
from bot.commands.typed import SetRecap, ShowRecap
from bot.kernel.render import Card, Field, Response
from bot.recaps.schedule import RecapSetting
from bot.rounds import cards
from bot.scheduling.schedule_spec import next_slot


async def recap(ctx: CommandContext, command: ShowRecap | SetRecap) -> Response:
    channel = ctx.quiz
    if isinstance(command, ShowRecap):
        return Response(_recap_card(ctx))
    setting = RecapSetting(enabled=command.schedule is not None, schedule=command.schedule)
    await ctx.recaps.change(channel.id, setting)
    if command.schedule is None:
        note = "No weekly recap any more. Turn it on again with `/quiz recap fri 16:00`."
    else:
        note = f"The weekly recap goes out every {command.schedule} ({channel.timezone})."
    return await ctx.change(channel, note)


def _recap_card(ctx: CommandContext) -> Card:
    channel = ctx.quiz
    setting = ctx.recaps.setting(channel.id)
    plan = ctx.recaps.plan(channel)
    upcoming = next_slot(plan.spec, plan.tz, ctx.engine.clock.now()) if plan else None
    when = (
        upcoming.astimezone(ZoneInfo(channel.timezone)).strftime("%a %d %b %Y %H:%M %Z")
        if upcoming
        else "—"
    )
    return cards.info_fields(
        "Weekly recap",
        (
            Field("Recap", setting.describe(), inline=True),
            Field("Timezone", channel.timezone, inline=True),
            Field("Next recap", when),
        ),
    )
