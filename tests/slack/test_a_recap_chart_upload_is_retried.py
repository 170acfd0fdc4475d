"""A weekly recap on Slack gets its chart however its upload went: an upload that fails for a
while is retried, a kill between the text and the upload uploads it after the restart, a
kill after the upload does not upload it again, and a refusal for good leaves the text
alone; the text is posted once each time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.kernel.refs import ChannelRef
from tests.fakes import SimulatedCrash
from tests.slack.conftest import StartSlackQuiz
from tests.slack.driver import CHANNEL, SlackQuiz
from tests.slack.fake_slack import TEAM, FakeSlack, Posted


async def record_a_recap(quiz: SlackQuiz) -> None:
    """A round with an answer, then the recap slot: the recap is queued, not sent yet."""
    await quiz.command("now")
    await quiz.reply("Shard the KV cache across GPUs", by="U0ANN")
    channel = await quiz.service.engine.channel(ChannelRef("slack", TEAM, CHANNEL))
    assert channel is not None
    slot = quiz.clock.now() + timedelta(days=1)
    quiz.clock.set(slot)
    await quiz.service.recaps.on_slot(channel.id, slot)


def recap_texts(fake: FakeSlack) -> list[Posted]:
    return [m for m in fake.posts(CHANNEL) if (m.key or "").startswith("recap:")]


def charts(fake: FakeSlack) -> list[str]:
    return [u.filename for u in fake.uploads if u.channel == CHANNEL]


def kill_at_the_upload(monkeypatch: pytest.MonkeyPatch, *, after: bool) -> None:
    """The process dies as it uploads the chart: before the upload, or once Slack took it."""
    upload = AsyncWebClient.files_upload_v2

    async def dies(self: AsyncWebClient, **kwargs: Any) -> Any:
        monkeypatch.setattr(AsyncWebClient, "files_upload_v2", upload)
        if after:
            await upload(self, **kwargs)
        raise SimulatedCrash("killed at the chart's upload")

    monkeypatch.setattr(AsyncWebClient, "files_upload_v2", dies)


async def test_an_upload_failing_for_a_while_is_retried_until_the_chart_is_out(
    slack_quiz: SlackQuiz, fake_slack: FakeSlack
) -> None:
    await record_a_recap(slack_quiz)
    fake_slack.upload_error = "internal_error"
    await slack_quiz.settle()
    assert len(recap_texts(fake_slack)) == 1 and charts(fake_slack) == []

    fake_slack.upload_error = None
    slack_quiz.clock.advance(minutes=1)  # past the retry's backoff
    await slack_quiz.settle()
    assert len(recap_texts(fake_slack)) == 1  # the text is not posted again
    [chart] = charts(fake_slack)
    assert chart.startswith("recap-") and chart.endswith(".png")


async def test_a_kill_between_the_text_and_the_upload_uploads_the_chart_after_restart(
    start_slack_quiz: StartSlackQuiz, fake_slack: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SimulatedCrash):
        async with start_slack_quiz() as quiz:
            await record_a_recap(quiz)
            kill_at_the_upload(monkeypatch, after=False)
            await quiz.settle()
    assert len(recap_texts(fake_slack)) == 1 and charts(fake_slack) == []

    async with start_slack_quiz() as quiz:
        quiz.clock.advance(minutes=1)
        await quiz.settle()
    assert len(recap_texts(fake_slack)) == 1
    assert len(charts(fake_slack)) == 1


async def test_a_kill_after_the_upload_does_not_upload_the_chart_again(
    start_slack_quiz: StartSlackQuiz, fake_slack: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SimulatedCrash):
        async with start_slack_quiz() as quiz:
            await record_a_recap(quiz)
            kill_at_the_upload(monkeypatch, after=True)
            await quiz.settle()
    assert len(charts(fake_slack)) == 1

    async with start_slack_quiz() as quiz:
        quiz.clock.advance(minutes=1)
        await quiz.settle()
    assert len(recap_texts(fake_slack)) == 1
    assert len(charts(fake_slack)) == 1  # found in the channel's history, not uploaded again


async def test_an_upload_refused_for_good_leaves_the_recap_without_its_chart(
    slack_quiz: SlackQuiz, fake_slack: FakeSlack, caplog: pytest.LogCaptureFixture
) -> None:
    await record_a_recap(slack_quiz)
    fake_slack.upload_error = "missing_scope"  # the app lacks files:write
    await slack_quiz.settle()
    slack_quiz.clock.advance(minutes=10)
    await slack_quiz.settle()
    assert len(recap_texts(fake_slack)) == 1 and charts(fake_slack) == []
    assert fake_slack.count("files.getUploadURLExternal") == 1  # not retried
    assert "missing_scope" in caplog.text
