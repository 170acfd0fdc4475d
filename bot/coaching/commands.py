"""``/quiz coach on|off`` and ``/quiz coach``: a member's consent to the answer coach, in
every channel at once (an opt-out, since an admin turns it on per channel)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.coaching.decisions import CoachDecisions
from bot.coaching.store import CoachStore
from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.clock import Clock
from bot.kernel.members import MemberIds
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Arguments, Param, ParamKind, PartProblem, Subcommand
from bot.quiz_command.typed import QuizCommand


@dataclass(frozen=True, slots=True)
class CoachConsentCommand(QuizCommand):
    """Let the coach read the member's answers or not (None: say which)."""

    on: bool | None


@dataclass(frozen=True, slots=True)
class CoachCardCommand(QuizCommand):
    """A card's button, typed (the console shows no buttons): accept, edit or dismiss card
    ``card``; ``points``: the key points an edit ticks."""

    action: str
    card: str
    points: str = ""


@dataclass(frozen=True, slots=True)
class CoachProbeCommand(QuizCommand):
    """Let the coach ask its own follow-up in practice or not (None: say which)."""

    on: bool | None


DECISIONS = ("accept", "edit", "dismiss")


def probe_card(on: bool) -> Response:
    body = (
        "In `/quiz practice` the coach may ask one follow-up of its own, after the pack's,"
        " on the first key point your answer missed. `/quiz coach probe off` stops it."
        if on
        else "The coach asks no follow-up of its own in your practice. `/quiz coach probe on`"
        " lets it."
    )
    return Response(info("The coach's follow-up", body))


def consent_card(on: bool, reader: str | None, channel_on: bool | None) -> Response:
    if not on:
        body = (
            "The coach reads none of your answers, in any channel or in practice. `/quiz coach"
            " on` lets it read them where an admin turned it on."
        )
    else:
        where = (
            ""
            if channel_on is None
            else " It is on in this channel."
            if channel_on
            else " It is off in this channel."
        )
        who = f" ({reader})" if reader else ""
        body = (
            f"The coach{who} may read your first answers where an admin turned it on (and your"
            " practice answers, where a channel of your workspace has it on), without your"
            f" name, and shows you privately what it found.{where} `/quiz coach off` stops it."
        )
    return Response(info("Your answer coach", body))


class CoachCommands:
    """The handler of ``/quiz coach``."""

    def __init__(
        self,
        coach: CoachStore,
        members: MemberIds,
        clock: Clock,
        reader: str | None,
        decisions: CoachDecisions,
    ) -> None:
        self._coach = coach
        self._decisions = decisions
        self._members = members
        self._clock = clock
        self._reader = reader

    async def coach(
        self,
        ctx: CommandContext,
        command: CoachConsentCommand | CoachCardCommand | CoachProbeCommand,
    ) -> Response | None:
        if isinstance(command, CoachCardCommand):
            return await self._decisions.typed(
                ctx.event.member, command.action, command.card, command.points, ctx.platform
            )
        member_id = await self._members.member_id(ctx.event.member)
        if isinstance(command, CoachProbeCommand):
            if command.on is not None:
                await self._coach.set_probe(member_id, command.on, self._clock.now())
            return probe_card(not await self._coach.refuses_probe(member_id))
        channel_on = ctx.channel.coach if ctx.channel else None
        if command.on is None:
            on = not await self._coach.refuses_coach(member_id)
        elif command.on:
            await self._coach.allow_coach(member_id)
            on = True
        else:
            await self._coach.refuse_coach(member_id, self._clock.now())
            on = False
        return consent_card(on, self._reader, channel_on)


def coach_command(
    arguments: Arguments,
) -> CoachConsentCommand | CoachCardCommand | CoachProbeCommand:
    state = arguments.get("state")
    values = [str(v) for v in arguments.get("card", ())]  # type: ignore[union-attr]
    if state == "probe":
        if len(values) > 1 or (values and values[0].lower() not in ("on", "off")):
            raise PartProblem(
                "probe takes on or off.", form="/quiz coach probe on|off", example=PROBE_OFF
            )
        return CoachProbeCommand(values[0].lower() == "on" if values else None)
    if state in DECISIONS:
        example = f"/quiz coach {state} 7" + (" 1 3" if state == "edit" else "")
        if state != "edit" and len(values) > 1:
            raise PartProblem(
                f"{state} takes the card's number only.",
                form=f"/quiz coach {state} CARD",
                example=example,
            )
        # without a card's number, the handler says where to find it
        return CoachCardCommand(str(state), values[0] if values else "", " ".join(values[1:]))
    if values:
        alone = f"/quiz coach {state}"
        raise PartProblem(f"{state} takes nothing after it.", form=alone, example=alone)
    return CoachConsentCommand(None if state is None else state == "on")


PROBE_OFF = "/quiz coach probe off"

COACH = Subcommand(
    "coach",
    "the answer coach, for your answers",
    "/quiz coach off",
    params=(
        Param(
            "state",
            ParamKind.CHOICE,
            "on: let the coach read my answers; off: never send them; accept, edit, dismiss:"
            " a coach's card, as its buttons do; probe on|off: its own follow-up in practice",
            choices=(*DECISIONS, "on", "off", "probe"),
        ),
        Param(
            "card",
            ParamKind.WORDS,
            "accept, dismiss: the card's number; edit: the card's number, then the key points"
            " your answer covered; probe: on or off",
            metavar="CARD",
            label="card",
            needs="state",
        ),
    ),
    build=coach_command,
    handler=CoachCommands.coach,
    needs_channel=False,
    in_direct=True,
)

# where help lists it (lower first, across every feature)
SUBCOMMANDS: tuple[Listed, ...] = (Listed(145, COACH),)
