"""The blind feature's face: what it adds to the bot (see :mod:`bot.feature`)."""

from __future__ import annotations

from typing import Protocol

from bot.blind.answers import ANSWER_FORM, BlindAnswers, opens_form
from bot.blind.commands import SUBCOMMANDS, BlindCommands
from bot.blind.performer import BlindAnswerPosts
from bot.feature import ButtonRoute, Feature, FormRoute, Parts
from bot.kernel.config import QuizConfig
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.platform import Platform
from bot.kernel.render import Response
from bot.rounds import cards
from bot.rounds.store import AnswerStore


class BlindStores(Protocol):
    @property
    def answers(self) -> AnswerStore: ...


class BlindDeps(Protocol):
    @property
    def store(self) -> BlindStores: ...
    @property
    def blind(self) -> BlindAnswers: ...
    @property
    def config(self) -> QuizConfig: ...


def build(deps: BlindDeps) -> Parts:
    blind = deps.blind

    async def on_button(event: ButtonPress, platform: Platform) -> Response | None:
        return await blind.on_button(event)

    async def on_form(event: FormSubmit, platform: Platform) -> Response | None:
        return await blind.on_form(event)

    return Parts(
        handlers=(BlindCommands(blind),),
        buttons=(ButtonRoute(on_button, lambda e: e.action == cards.ANSWER_ACTION),),
        forms=(FormRoute(on_form, lambda e: e.kind == ANSWER_FORM),),
        performers=(BlindAnswerPosts(deps.store.answers, deps.config.vote_emoji).performer(),),
    )


FEATURE: Feature[BlindDeps] = Feature(
    "blind",
    subcommands=SUBCOMMANDS,
    opens_form=opens_form,
    build=build,
)
