"""`/quiz stats` shows a member the channel's figures, never the outbox's internals: the
messages still waiting to be sent are shown to an admin only, privately."""

from __future__ import annotations

from tests.harness import QuizHarness


async def test_a_member_sees_no_outbox_and_an_admin_sees_what_waits(quiz: QuizHarness) -> None:
    await quiz.command("now", settle=False)  # its messages wait in the outbox
    member = (await quiz.command("stats", by="bob", settle=False)).card
    assert not any("outbox" in f.name.lower() or "sent" in f.name.lower() for f in member.fields)
    assert "pending" not in member.plain_text()
    public = (await quiz.command("stats public", by="admin", settle=False)).card
    assert "pending" not in public.plain_text() and "waiting" not in public.plain_text()
    admin = (await quiz.command("stats", by="admin", settle=False)).card
    [waiting] = [f.value for f in admin.fields if f.name == "Messages not sent yet (admins)"]
    assert waiting.endswith("waiting, 0 failed")
