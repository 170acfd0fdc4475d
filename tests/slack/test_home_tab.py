"""Slack's Home tab through the fake Slack and signed requests: the member's page is
published on ``app_home_opened`` (its text first, then with the mastery chart uploaded into
their IM and shown by its file id), refreshed when opened again without uploading an
unchanged chart, and its buttons run their command in the member's IM. Exports and the
erasure on Slack: files in the member's IM."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any
from urllib.parse import urlencode

from bot.kernel.refs import ChannelRef, MemberRef
from tests.slack.driver import SlackQuiz
from tests.slack.fake_slack import TEAM
from tests.slack.signed import FORM, bolt_request

ALICE = "U0ALICE"


async def open_home(quiz: SlackQuiz, user: str = ALICE) -> None:
    await quiz.event(
        {"type": "app_home_opened", "user": user, "channel": f"D{user}", "tab": "home"}
    )


async def press_home(quiz: SlackQuiz, view: dict[str, Any], label: str, user: str = ALICE) -> None:
    """Press the page button with this label, as Slack sends a click in a Home tab."""
    [button] = [
        element
        for block in view["blocks"]
        if block["type"] == "actions"
        for element in block["elements"]
        if element["text"]["text"].startswith(label)
    ]
    payload = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": user, "name": user.lower(), "team_id": TEAM},
        "container": {"type": "view", "view_id": "VH1"},
        "view": {"id": "VH1", "type": "home"},
        "trigger_id": "trigger.home",
        "actions": [
            {
                "type": "button",
                "action_id": button["action_id"],
                "value": button["value"],
                "block_id": "b",
                "action_ts": "1",
            }
        ],
    }
    body = urlencode({"payload": json.dumps(payload)})
    response = await quiz.slack.app.async_dispatch(bolt_request(body, content_type=FORM))
    assert response.status == 200
    await quiz.settle()


def texts(view: dict[str, Any]) -> str:
    return json.dumps(view["blocks"])


def button_labels(view: dict[str, Any]) -> list[str]:
    return [
        e["text"]["text"] for b in view["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]


async def answered_and_graded(quiz: SlackQuiz, user: str = ALICE) -> None:
    await quiz.command("now")
    await quiz.reply("my answer", by=user)
    await quiz.react("bulb", by=user, ts=quiz.question().ts)
    await quiz.command("grade missed", by=user)


async def test_opening_the_home_tab_publishes_the_page_then_its_chart(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)

    await open_home(quiz)

    first, second = quiz.fake.home_views[ALICE]
    assert "Reviews due" in texts(first) and "streak" in texts(first)
    assert not [b for b in first["blocks"] if b["type"] == "image"]  # the text goes first
    [image] = [b for b in second["blocks"] if b["type"] == "image"]
    [upload] = quiz.fake.uploads
    assert image["slack_file"] == {"id": upload.file_id} and "url" not in image["slack_file"]
    assert upload.channel == f"D{ALICE}" and upload.content.startswith(b"\x89PNG")
    assert button_labels(second)[0] == "Start practice"
    assert any(label.startswith("Remind me daily") for label in button_labels(second))
    calls = quiz.fake.calls
    assert calls.index("views.publish") < calls.index("files.getUploadURLExternal")


async def test_opening_it_again_refreshes_the_page_without_a_second_upload(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)
    await open_home(quiz)

    await open_home(quiz)

    views = quiz.fake.home_views[ALICE]
    assert len(views) == 3  # the second opening: one publish, the chart already uploaded
    assert [b for b in views[2]["blocks"] if b["type"] == "image"]
    assert len(quiz.fake.uploads) == 1


async def test_the_reminder_switch_runs_its_command_and_the_page_follows(
    slack_quiz: SlackQuiz,
) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)
    await open_home(quiz)

    await press_home(quiz, quiz.fake.home_views[ALICE][-1], "Remind me daily at 09:00")

    latest = quiz.fake.home_views[ALICE][-1]
    assert "on, 09:00" in texts(latest)
    assert "Turn the reminder off" in button_labels(latest)
    told = [e for e in quiz.fake.ephemerals if e["channel"] == f"D{ALICE}"]
    assert told, "the reminder's confirmation goes to the member's IM"


async def test_the_notices_switch_runs_notify_in_its_channel(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)
    await open_home(quiz)
    assert "Notices in" in texts(quiz.fake.home_views[ALICE][-1])

    await press_home(quiz, quiz.fake.home_views[ALICE][-1], "Notify me in")

    channel = await quiz.service.engine.channel(ChannelRef("slack", TEAM, quiz.channel))
    assert channel is not None
    alice = await quiz.service.store.members.member_id(MemberRef("slack", TEAM, ALICE))
    assert await quiz.service.store.notices.is_subscribed(channel.id, alice)
    latest = quiz.fake.home_views[ALICE][-1]
    assert any(label.startswith("Stop notices in") for label in button_labels(latest))
    assert [e for e in quiz.fake.ephemerals if e["channel"] == quiz.channel and e["user"] == ALICE]


async def test_time_away_shows_and_im_back_ends_it(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)
    await quiz.command("away until 2026-12-20", by=ALICE)
    await open_home(quiz)
    assert "away through" in texts(quiz.fake.home_views[ALICE][-1])

    await press_home(quiz, quiz.fake.home_views[ALICE][-1], "I'm back")

    latest = quiz.fake.home_views[ALICE][-1]
    assert "not away" in texts(latest) and "I'm back" not in button_labels(latest)


async def test_start_practice_on_the_page_starts_it_in_the_im(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await open_home(quiz)  # a member the quiz has never seen: a page with the button

    [view] = quiz.fake.home_views[ALICE]
    await press_home(quiz, view, "Start practice")

    assert quiz.fake.posts(f"D{ALICE}"), "the practice question is posted in the IM"


async def test_export_me_on_slack_is_a_file_in_the_members_im(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)

    await quiz.command("export me", by=ALICE)

    [upload] = [u for u in quiz.fake.uploads if u.filename.endswith(".zip")]
    assert upload.channel == f"D{ALICE}"
    with zipfile.ZipFile(io.BytesIO(upload.content)) as archive:
        data = json.loads(archive.read("quizbot-data.json"))
    assert [a["text"] for a in data["tables"]["answers"]] == ["my answer"]


async def test_export_anki_then_forget_me_on_slack(slack_quiz: SlackQuiz) -> None:
    quiz = slack_quiz
    await answered_and_graded(quiz)

    await quiz.command("export anki", by=ALICE)
    await quiz.command("forget me confirm", by=ALICE)
    await quiz.command("export me", by=ALICE)

    names = [u.filename for u in quiz.fake.uploads if u.channel == f"D{ALICE}"]
    assert names[0].endswith(".apkg")
    [last] = [u for u in quiz.fake.uploads if u.filename.endswith(".zip")]
    with zipfile.ZipFile(io.BytesIO(last.content)) as archive:
        tables = json.loads(archive.read("quizbot-data.json"))["tables"]
    assert tables["answers"] == [] and tables["grades"] == [] and tables["member_cards"] == []
