"""The bank feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Any, Protocol

from bot.bank.catalog import WorkspaceCatalog
from bot.bank.commands import SUBCOMMANDS, BankCommands
from bot.bank.moderation_cards import MODERATION_ACTIONS
from bot.bank.moderation_desk import ModerationDesk
from bot.bank.store import BankStore, StoredQuestion
from bot.bank.suggestion_forms import opens_form
from bot.feature import ButtonRoute, ErasedTable, Feature, FormRoute, KeptTable, Parts
from bot.kernel.followed import Followed
from bot.kernel.stores import ChangeKind, ChannelChanges
from questions.catalog import Catalog


class BankStores(Protocol):
    @property
    def bank(self) -> BankStore: ...


class BankDeps(Protocol):
    @property
    def store(self) -> BankStores: ...
    @property
    def desk(self) -> ModerationDesk: ...
    @property
    def questions(self) -> WorkspaceCatalog: ...
    @property
    def catalog(self) -> Catalog: ...


def build(deps: BankDeps) -> Parts:
    desk, questions = deps.desk, deps.questions

    def stored(question_id: int, stored: StoredQuestion | None) -> None:
        """Another replica changed the question's texts in the bank: kept as stored now."""
        questions.put_stored(stored or StoredQuestion(question_id, None, ()))

    def follows(changes: ChannelChanges) -> tuple[Followed[Any], ...]:
        return (
            Followed(
                ChangeKind.QUESTION,
                changes.question_versions,
                deps.store.bank.stored_question,
                stored,
            ),
        )

    return Parts(
        follows=follows,
        handlers=(BankCommands(desk, deps.questions, deps.catalog),),
        buttons=(ButtonRoute(desk.on_button, lambda e: e.action in MODERATION_ACTIONS),),
        # the desk's forms (a suggestion, an edit) are every form no other feature claims
        forms=(FormRoute(desk.on_form),),
    )


FEATURE: Feature[BankDeps] = Feature(
    "bank",
    subcommands=SUBCOMMANDS,
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
