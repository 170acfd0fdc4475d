"""Charts on Slack: uploaded with files_upload_v2 after the text, into the channel or the
thread; a refused upload leaves the text sent. And links to answers (chat.getPermalink)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adapters.slack.connector import SlackPlatform
from bot.kernel.refs import ChannelRef, MessageRef, ThreadRef
from bot.kernel.render import Card
from tests.chart_cards import PNG, RECAP_CARD
from tests.slack.driver import CHANNEL as CHANNEL_ID
from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM, FakeSlack

CHANNEL = ChannelRef("slack", "T1", "C1", "#quiz")


async def test_a_recap_is_posted_then_its_chart_uploaded_into_the_channel(
    fake_slack: FakeSlack, slack: SlackPlatform
) -> None:
    sent = await slack.post(CHANNEL, RECAP_CARD, key="recap:1:2026-W49")

    [posted] = fake_slack.posts("C1")
    assert sent.message_id == posted.ts and posted.key == "recap:1:2026-W49"
    assert any("5 rounds" in text for text in posted.block_texts())
    [upload] = fake_slack.uploads
    assert upload.content == PNG
    assert (upload.channel, upload.thread_ts) == ("C1", None)
    assert upload.filename == "recap-2026-W49.png"
    assert upload.alt_txt == "Weekly recap: topic mastery and members per day"
    assert (
        fake_slack.calls.index("chat.postMessage")
        < fake_slack.calls.index("files.getUploadURLExternal")
        < fake_slack.calls.index("files.completeUploadExternal")
    )


async def test_a_reply_uploads_its_chart_into_the_thread(
    fake_slack: FakeSlack, slack: SlackPlatform
) -> None:
    question = await slack.post(CHANNEL, Card(title="Question #1"), key="round:1:question")
    thread = ThreadRef(CHANNEL, question.message_id)
    await slack.reply(thread, RECAP_CARD, key="round:1:outline")
    [upload] = fake_slack.uploads
    assert (upload.channel, upload.thread_ts) == ("C1", question.message_id)


@pytest.mark.parametrize("refusal", ["missing_scope", "not_in_channel", "ratelimited"])
async def test_a_refused_upload_leaves_the_text_sent(
    fake_slack: FakeSlack,
    slack: SlackPlatform,
    caplog: pytest.LogCaptureFixture,
    refusal: str,
) -> None:
    fake_slack.upload_error = refusal
    sent = await slack.post(CHANNEL, RECAP_CARD, key="recap:1:2026-W49")

    [posted] = fake_slack.posts("C1")
    assert sent.message_id == posted.ts  # the card counts as sent: no retry, no second post
    assert fake_slack.uploads == []
    assert "files.completeUploadExternal" not in fake_slack.calls
    assert "the chart recap-2026-W49.png was not uploaded; the text went without it" in caplog.text
    assert refusal in caplog.text


async def test_a_private_card_goes_out_as_text_without_an_upload(
    fake_slack: FakeSlack, slack: SlackPlatform
) -> None:
    from bot.kernel.refs import MemberRef

    await slack.tell(MemberRef("slack", "T1", "U1", "ann"), CHANNEL, RECAP_CARD)
    assert len(fake_slack.ephemerals) == 1
    assert fake_slack.uploads == []  # Slack has no ephemeral files


async def test_a_link_to_an_answer_is_its_permalink(
    fake_slack: FakeSlack, slack: SlackPlatform
) -> None:
    link = await slack.link(
        MessageRef(CHANNEL, "1764000002.000002"), ThreadRef(CHANNEL, "1764000001.000001")
    )
    assert link == "https://fake.slack.test/archives/C1/p1764000002000002"
    fake_slack.channel_errors["C1"] = "channel_not_found"
    assert await slack.link(MessageRef(CHANNEL, "1764000002.000002")) is None


async def test_a_weekly_recap_on_slack_links_answers_and_uploads_its_chart(
    slack_quiz: SlackQuiz, fake_slack: FakeSlack
) -> None:
    await slack_quiz.command("now")
    answer = await slack_quiz.reply("Shard the KV cache across GPUs", by="U0ANN")
    await slack_quiz.react("+1", by="U0BOB", ts=answer)
    channel = await slack_quiz.service.engine.channel(ChannelRef("slack", TEAM, CHANNEL_ID))
    assert channel is not None
    slot = slack_quiz.clock.now() + timedelta(days=1)
    slack_quiz.clock.set(slot)
    await slack_quiz.service.recaps.on_slot(channel.id, slot)
    await slack_quiz.settle()

    [recap] = [m for m in fake_slack.posts(CHANNEL_ID) if (m.key or "").startswith("recap:")]
    text = "\n".join(recap.block_texts())
    permalink = f"https://fake.slack.test/archives/{CHANNEL_ID}/p{answer.replace('.', '')}"
    assert "Shard the KV cache across GPUs" in text and permalink in text
    [upload] = fake_slack.uploads
    assert upload.channel == CHANNEL_ID and upload.thread_ts is None
    assert upload.content.startswith(b"\x89PNG") and upload.filename.startswith("recap-")
