"""Daily review reminders on Slack: set with /quiz remind, sent to the member's IM once a
day when reviews are due, never twice after a crash between sending and recording."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.kernel.grades import Grade
from bot.kernel.models import ActionKind
from tests.slack.driver import SlackQuiz

MEMBER = "U0ALICE"
IM = f"D{MEMBER}"  # the fake's IM of the member with the bot
BERLIN = ZoneInfo("Europe/Berlin")


def reminders_in_im(slack_quiz: SlackQuiz) -> list[str]:
    return [
        " ".join(post.block_texts())
        for post in slack_quiz.fake.posts(IM)
        if post.block_texts() and post.block_texts()[0].startswith("Time to review")
    ]


async def set_up_due_review(slack_quiz: SlackQuiz) -> tuple[int, datetime]:
    """The member's reminder at 08:30 Berlin time and one review due; (member, slot)."""
    response = await slack_quiz.command("remind 08:30 Europe/Berlin", by=MEMBER)
    assert response.status == 200
    assert "Reminder set" in str(slack_quiz.fake.ephemerals[-1])
    await slack_quiz.command("now")
    round_ = await slack_quiz.service.store.rounds.latest_round(1)
    assert round_ is not None
    stored = await slack_quiz.service.store.reminders.reminders()
    assert [(r.direct.channel_id, r.local_time) for r in stored] == [(IM, "08:30")]
    member_id = stored[0].member_id
    graded = await slack_quiz.service.learning.grade(
        member_id, round_.question_id, Grade.MISSED, slack_quiz.clock.now()
    )
    day = (graded.card.due + timedelta(days=1)).astimezone(BERLIN).date()
    slot = datetime(day.year, day.month, day.day, 8, 30, tzinfo=BERLIN).astimezone(UTC)
    return member_id, slot


async def test_the_reminder_reaches_the_im_once(slack_quiz: SlackQuiz) -> None:
    member_id, slot = await set_up_due_review(slack_quiz)
    slack_quiz.clock.set(slot)
    for _ in range(2):  # the slot handled twice (a replica, a restart's catch-up)
        await slack_quiz.service.reminders.on_slot(member_id, slot)
        await slack_quiz.settle()
    (reminder,) = reminders_in_im(slack_quiz)
    assert "1 question is due for review" in reminder and "/quiz practice" in reminder
    (post,) = [p for p in slack_quiz.fake.posts(IM) if p.key and p.key.startswith("remind:")]
    assert post.key == f"remind:{member_id}:{slot.astimezone(BERLIN).date().isoformat()}"


async def test_sent_but_not_recorded_is_found_in_the_im_not_sent_again(
    slack_quiz: SlackQuiz,
) -> None:
    member_id, slot = await set_up_due_review(slack_quiz)
    slack_quiz.clock.set(slot)
    await slack_quiz.service.reminders.on_slot(member_id, slot)  # queued, not sent yet
    store = slack_quiz.service.store
    (action,) = [a for a in await store.outbox.due_actions(slot) if a.kind is ActionKind.DIRECT]
    # a process claimed and sent it, then died before recording the send
    await store.outbox.begin_attempt(action.id, slot)
    assert action.destination is not None and action.card is not None
    await slack_quiz.slack.post(action.destination, action.card, key=action.key)
    assert len(reminders_in_im(slack_quiz)) == 1
    slack_quiz.clock.advance(minutes=5)
    await slack_quiz.settle()  # the retry looks in the IM's history first
    assert len(reminders_in_im(slack_quiz)) == 1
    assert [
        a for a in await store.outbox.due_actions(slack_quiz.clock.now()) if a.round_id is None
    ] == []


async def test_no_review_due_no_reminder(slack_quiz: SlackQuiz) -> None:
    await slack_quiz.command("remind 08:30", by=MEMBER)
    (stored,) = await slack_quiz.service.store.reminders.reminders()
    slot = slack_quiz.clock.now() + timedelta(hours=1)
    slack_quiz.clock.set(slot)
    await slack_quiz.service.reminders.on_slot(stored.member_id, slot)
    await slack_quiz.settle()
    assert reminders_in_im(slack_quiz) == []
