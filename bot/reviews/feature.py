"""The reviews feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.feature import ButtonRoute, ErasedTable, Feature, FormRoute, OnMe, Parts
from bot.kernel.events import ButtonPress
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.reviews.commands import SUBCOMMANDS, ReviewCommands
from bot.reviews.forms import PEER_FORMS, opens_form
from bot.reviews.me_section import CalibrationSection
from bot.reviews.peer import PeerReviews
from bot.reviews.performer import BestAnswerPost
from bot.reviews.store import ReviewStore
from bot.rounds import cards
from bot.rounds.store import AnswerStore


class ReviewsStores(Protocol):
    @property
    def reviews(self) -> ReviewStore: ...
    @property
    def answers(self) -> AnswerStore: ...


class ReviewsDeps(Protocol):
    @property
    def store(self) -> ReviewsStores: ...
    @property
    def peer_reviews(self) -> PeerReviews: ...


def build(deps: ReviewsDeps) -> Parts:
    reviews = deps.peer_reviews

    async def on_button(event: ButtonPress, platform: Platform) -> Response | None:
        return await reviews.on_button(event)

    return Parts(
        handlers=(ReviewCommands(reviews),),
        buttons=(
            ButtonRoute(
                on_button, lambda e: e.action in (cards.CHECKLIST_ACTION, cards.REVIEW_ACTION)
            ),
        ),
        forms=(FormRoute(reviews.on_form, lambda e: e.kind in PEER_FORMS),),
        performers=(BestAnswerPost(deps.store.reviews, deps.store.answers).performer(),),
        me_sections=(OnMe(20, CalibrationSection(reviews)),),
    )


FEATURE: Feature[ReviewsDeps] = Feature(
    "reviews",
    subcommands=SUBCOMMANDS,
    opens_form=opens_form,
    build=build,
    aggregates=("reviews",),
    member_tables=(
        ErasedTable("answer_reviews", "reviews they wrote, and those of their answers"),
        ErasedTable("best_answers", "an answer of theirs marked the round's best"),
    ),
)
