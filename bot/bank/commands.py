"""``/quiz suggest``, ``/quiz flag``, ``/quiz review`` and ``/quiz packs``: the question
bank as members and admins reach it (see :mod:`bot.bank.moderation_desk`; ``/quiz review``
opens its moderation queue)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.bank._cards import packs_card
from bot.bank.catalog import WorkspaceCatalog, workspace_of
from bot.bank.moderation_desk import ModerationDesk
from bot.bank.suggestion_forms import no_quiz_to_suggest_to, suggest_form
from bot.feature import Listed
from bot.kernel.cards import info
from bot.kernel.render import Response
from bot.quiz_command.context import CommandContext
from bot.quiz_command.grammar import Param, ParamKind, Subcommand
from bot.quiz_command.typed import QuizCommand
from questions.catalog import Catalog

REVIEW_CHOICES = ("approve", "reject", "edit")


@dataclass(frozen=True, slots=True)
class ShowPacks(QuizCommand):
    """List the question packs."""


@dataclass(frozen=True, slots=True)
class SuggestQuestion(QuizCommand):
    """``/quiz suggest``: the form for a new question."""


@dataclass(frozen=True, slots=True)
class ShowModerationQueue(QuizCommand):
    """``/quiz review``: what waits for review, suggestions and flags."""


@dataclass(frozen=True, slots=True)
class ModerationDecision(QuizCommand):
    """``/quiz review approve|reject|edit ITEM [REASON]``; ITEM is ``12``/``s12`` (a
    suggestion) or ``f3`` (a flag)."""

    action: str
    item: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FlagRound(QuizCommand):
    """``/quiz flag REASON``: report a mistake in the current or latest round's question."""

    reason: str


class BankCommands:
    """The handlers of the question bank's subcommands."""

    def __init__(self, desk: ModerationDesk, questions: WorkspaceCatalog, catalog: Catalog) -> None:
        self._desk = desk
        self._questions = questions
        self._catalog = catalog

    async def suggest(self, ctx: CommandContext, command: SuggestQuestion) -> Response:
        if ctx.channel is None:
            return no_quiz_to_suggest_to()
        return Response(
            info(
                "Suggest a question",
                "Fill in the form: topic, question, outline, follow-ups and key points.",
            ),
            form=suggest_form(),
        )

    async def moderate(
        self, ctx: CommandContext, command: ShowModerationQueue | ModerationDecision
    ) -> Response:
        if isinstance(command, ShowModerationQueue):
            return await self._desk.queue(ctx.event.channel)
        if ctx.platform is None:
            raise LookupError("/quiz review ran without its platform")
        return await self._desk.decide(
            command.action,
            command.item,
            command.reason,
            by=ctx.event.member,
            channel=ctx.event.channel,
            platform=ctx.platform,
        )

    async def flag(self, ctx: CommandContext, command: FlagRound) -> Response:
        return await self._desk.flag(ctx.event.channel, ctx.event.member, command.reason)

    async def show_packs(self, ctx: CommandContext, command: ShowPacks) -> Response:
        own = self._questions.own_topics(workspace_of(ctx.event.channel))
        return Response(packs_card(self._catalog.packs, own))


PACKS = Subcommand(
    "packs",
    "the question packs",
    "/quiz packs",
    build=lambda _: ShowPacks(),
    handler=BankCommands.show_packs,
    needs_channel=False,
    in_direct=True,
)

SUGGEST = Subcommand(
    "suggest",
    "suggest a question (a form: topic, question, outline, follow-ups, key points)",
    "/quiz suggest",
    build=lambda _: SuggestQuestion(),
    handler=BankCommands.suggest,
    needs_channel=False,  # it says where to suggest instead
)

FLAG = Subcommand(
    "flag",
    "report a mistake in the current or latest round's question or outline",
    "/quiz flag the H100 has 80 GB of HBM3, not 40",
    params=(
        Param(
            "reason",
            ParamKind.TEXT,
            "What is wrong",
            metavar="REASON",
            label="reason",
            required=True,
            missing="Say what is wrong.",
        ),
    ),
    build=lambda a: FlagRound(reason=str(a.get("reason", ""))),
    handler=BankCommands.flag,
)

# members and admins type `/quiz review` for the moderation queue: the word stays the command's
MODERATION = Subcommand(
    "review",
    "pending suggestions and flags; approve, reject or edit one (ITEM: s<N> or f<N>)",
    "/quiz review reject s3 already covered by the KV cache question",
    params=(
        Param(
            "action",
            ParamKind.CHOICE,
            "approve, reject or edit",
            choices=REVIEW_CHOICES,
            label="action",
        ),
        Param(
            "item",
            ParamKind.WORD,
            "s<N> (a suggestion) or f<N> (a flag)",
            metavar="ITEM",
            label="item (s<N> or f<N>)",
            required=True,
            needs="action",
        ),
        Param(
            "reason",
            ParamKind.TEXT,
            "Why (shown to the suggester)",
            metavar="REASON",
            label="reason",
            needs="item",
        ),
    ),
    build=lambda a: (
        ModerationDecision(
            action=str(a["action"]),
            item=str(a["item"]),
            reason=str(a.get("reason", "")),
        )
        if "action" in a
        else ShowModerationQueue()
    ),
    handler=BankCommands.moderate,
    admin=True,
)


# this feature's /quiz subcommands, and where help lists each (lower first, across every
# feature): a new subcommand is its value above, its handler's method and a line here
SUBCOMMANDS: tuple[Listed, ...] = (
    Listed(190, PACKS),
    Listed(200, SUGGEST),
    Listed(210, FLAG),
    Listed(290, MODERATION),
)
