"""The bank feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.bank.catalog import WorkspaceCatalog
from bot.bank.commands import FLAG, MODERATION, PACKS, SUGGEST, BankCommands
from bot.bank.moderation_cards import MODERATION_ACTIONS
from bot.bank.moderation_desk import ModerationDesk
from bot.bank.suggestion_forms import opens_form
from bot.feature import ButtonRoute, ErasedTable, Feature, FormRoute, KeptTable, Listed, Parts
from questions.catalog import Catalog


class BankDeps(Protocol):
    @property
    def desk(self) -> ModerationDesk: ...
    @property
    def questions(self) -> WorkspaceCatalog: ...
    @property
    def catalog(self) -> Catalog: ...


def build(deps: BankDeps) -> Parts:
    desk = deps.desk
    return Parts(
        handlers=(BankCommands(desk, deps.questions, deps.catalog),),
        buttons=(ButtonRoute(desk.on_button, lambda e: e.action in MODERATION_ACTIONS),),
        # the desk's forms (a suggestion, an edit) are every form no other feature claims
        forms=(FormRoute(desk.on_form),),
    )


FEATURE: Feature[BankDeps] = Feature(
    "bank",
    subcommands=(
        Listed(190, PACKS),
        Listed(200, SUGGEST),
        Listed(210, FLAG),
        Listed(290, MODERATION),
    ),
    opens_form=opens_form,
    build=build,
    aggregates=("bank",),
    member_tables=(
        ErasedTable("bonuses"),
        ErasedTable("flags"),
        ErasedTable("suggestions", "those not approved: an approved one is a bank question now"),
        KeptTable(
            "suggestions.decided_by", "an admin's decision on a suggestion stays with the bank"
        ),
        KeptTable("question_overrides", "an admin's edit of a question stays with the bank"),
    ),
)
