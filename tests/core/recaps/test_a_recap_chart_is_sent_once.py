"""A recap's chart is a step of the recap's outbox action where the platform sends a picture
apart from its text (Slack uploads it after the message): a kill between the two, or an
upload that fails for a while, still gets the chart out, and text and chart go out once
each, on both store backends."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from bot.kernel.config import QuizConfig
from bot.kernel.errors import PlatformError
from bot.kernel.models import ActionKind, ActionState, OutboxAction
from bot.kernel.refs import ChannelRef, MessageRef
from bot.kernel.render import Card, Image
from bot.recaps.recap import recap_key
from bot.service import QuizService
from bot.store import Store
from questions.catalog import Catalog
from tests.core.recaps.test_recap import FRIDAY_RECAP, channel_settings, seed_week
from tests.fakes import FakeClock, FakePlatform, Sent, SimulatedCrash
from tests.harness import QuizHarness
from tests.storage.backends import BACKENDS, open_store
from tests.store_reads import round_actions

WEEK = "2026-W49"


@dataclass
class UploadingPlatform(FakePlatform):
    """Sends a card's picture apart from its text, as Slack does: ``post`` sends the text,
    then uploads the picture on a best-effort basis (a failed upload is logged there and
    the text counts as sent); ``post_image`` uploads a picture alone and raises when that
    failed; a picture uploaded under a key is found by it."""

    uploads: list[Sent] = field(default_factory=list)
    upload_failures: list[BaseException] = field(default_factory=list)
    crash_after_upload: bool = False

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef:
        sent = await super().post(channel, dataclasses.replace(card, image=None), key=key)
        if card.image is not None:
            with contextlib.suppress(PlatformError):  # the text went without it
                await self.post_image(channel, card.image, key=key)
        return sent

    async def post_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef:
        if self.upload_failures:
            raise self.upload_failures.pop(0)
        upload = Sent(f"F{len(self.uploads) + 1}", channel, Card(image.filename, image=image), key)
        self.uploads.append(upload)
        if self.crash_after_upload:
            self.crash_after_upload = False
            raise SimulatedCrash(key)
        return MessageRef(channel, upload.id)

    async def find_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        for upload in self.uploads:
            if upload.key == key and upload.channel.channel_id == channel.channel_id:
                return MessageRef(channel, upload.id)
        return None


@pytest.fixture
def platform() -> UploadingPlatform:
    return UploadingPlatform()


def service_on(
    store: Store, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> QuizService:
    return QuizService(
        store=store,
        platforms={platform.name: platform},
        catalog=catalog,
        clock=clock,
        config=QuizConfig(default_schedule=None),
        rng=random.Random(7),
        background=False,
    )


@pytest.fixture(params=BACKENDS)
async def quiz(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    platform: UploadingPlatform,
    clock: FakeClock,
    catalog: Catalog,
) -> AsyncIterator[QuizHarness]:
    """The service over SQLite, then over PostgreSQL."""
    async with open_store(request.param, tmp_path) as store:
        service = service_on(store, platform, clock, catalog)
        await service.start()
        try:
            yield QuizHarness(service, platform, clock)
        finally:
            await service.stop()


async def restarted(quiz: QuizHarness, catalog: Catalog) -> QuizService:
    """A new service on the same store, as after the process was killed and started again:
    nothing of the old one's memory carries over."""
    await quiz.service.stop()
    quiz.clock.advance(minutes=1)
    service = service_on(quiz.service.store, quiz.platform, quiz.clock, catalog)
    await service.start()
    return service


async def recap_due(quiz: QuizHarness) -> int:
    """Seed a week and record its recap; the channel's id."""
    await seed_week(quiz)
    channel = await channel_settings(quiz)
    quiz.clock.set(FRIDAY_RECAP)
    await quiz.service.recaps.on_slot(channel.id, FRIDAY_RECAP)
    return channel.id


async def recap_action(service: QuizService, channel_id: int) -> OutboxAction:
    last = await service.store.recaps.last_round_between(
        channel_id, FRIDAY_RECAP - timedelta(days=7), FRIDAY_RECAP
    )
    assert last is not None
    [action] = [a for a in await round_actions(service.store, last) if a.kind is ActionKind.RECAP]
    assert action.key == recap_key(channel_id, WEEK)
    return action


def texts(platform: UploadingPlatform) -> list[Sent]:
    return [m for m in platform.in_channel() if m.key.startswith("recap:")]


def charts(platform: UploadingPlatform) -> list[str]:
    return [upload.card.title for upload in platform.uploads]


async def test_a_kill_between_the_recap_and_its_chart_uploads_the_chart_after_restart(
    quiz: QuizHarness, platform: UploadingPlatform, catalog: Catalog
) -> None:
    channel_id = await recap_due(quiz)
    platform.crash_after_send = True  # the text is posted, then the process dies
    with pytest.raises(SimulatedCrash):
        await quiz.service.settle()
    assert len(texts(platform)) == 1 and charts(platform) == []

    service = await restarted(quiz, catalog)
    try:
        await service.settle()
        action = await recap_action(service, channel_id)
    finally:
        await service.stop()
    [text] = texts(platform)
    assert text.card.image is None and "Weekly recap" in text.card.title
    assert charts(platform) == [f"recap-{WEEK}.png"]
    assert (action.state, action.result_ref) == (ActionState.DONE, text.id)


async def test_a_failed_chart_upload_is_retried_and_the_recap_posted_once(
    quiz: QuizHarness, platform: UploadingPlatform
) -> None:
    channel_id = await recap_due(quiz)
    platform.upload_failures.append(PlatformError("Slack files.completeUploadExternal: 503"))
    await quiz.service.settle()
    assert len(texts(platform)) == 1 and charts(platform) == []
    waiting = await recap_action(quiz.service, channel_id)
    assert waiting.state is ActionState.PENDING  # retried, not done without its chart

    quiz.clock.advance(minutes=1)  # past the retry's backoff
    await quiz.service.settle()
    assert len(texts(platform)) == 1
    assert charts(platform) == [f"recap-{WEEK}.png"]
    assert (await recap_action(quiz.service, channel_id)).state is ActionState.DONE


async def test_a_kill_after_the_chart_was_uploaded_does_not_upload_it_again(
    quiz: QuizHarness, platform: UploadingPlatform, catalog: Catalog
) -> None:
    channel_id = await recap_due(quiz)
    platform.crash_after_upload = True
    with pytest.raises(SimulatedCrash):
        await quiz.service.settle()

    service = await restarted(quiz, catalog)
    try:
        await service.settle()
        action = await recap_action(service, channel_id)
    finally:
        await service.stop()
    assert len(texts(platform)) == 1
    assert charts(platform) == [f"recap-{WEEK}.png"]
    assert action.state is ActionState.DONE


async def test_where_the_picture_goes_in_the_message_the_recap_is_one_message(
    quiz: QuizHarness, catalog: Catalog, tmp_path: Path, clock: FakeClock
) -> None:
    """Discord and the console send the chart in the recap's own message: no second step."""
    one_message = FakePlatform()
    await quiz.service.stop()
    service = service_on(quiz.service.store, one_message, clock, catalog)
    await service.start()
    try:
        harness = QuizHarness(service, one_message, clock)
        await recap_due(harness)
        await service.settle()
    finally:
        await service.stop()
    [recap] = [m for m in one_message.in_channel() if m.key.startswith("recap:")]
    assert recap.card.image is not None and recap.key == recap_key(1, WEEK)
