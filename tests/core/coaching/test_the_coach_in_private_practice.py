"""The coach in private practice, on both store backends against a scripted endpoint: the
answer to a session's question is read beside the loop (its follow-ups are not), its card
comes after the session's outline, never before, and nothing is read where the member's
workspace has the coach off everywhere or the member opted out. The answer's text is kept
with the reading: in the member's export, and erased with them."""

from __future__ import annotations

import json

from bot.kernel.errors import PlatformError
from bot.kernel.events import DirectMessage
from bot.kernel.refs import ChannelRef, MessageRef
from bot.kernel.render import Card, CardKind
from bot.practice.sessions import same_place
from tests.core.coach.scripted_endpoint import ScriptedEndpoint, error, ticks
from tests.core.coaching.coached import KEY_POINTS, STRONG, STRONG_TICKS
from tests.fakes import FakeClock
from tests.harness import QuizHarness


def dm(quiz: QuizHarness, name: str) -> ChannelRef:
    return ChannelRef(quiz.platform.name, quiz.channel.workspace, f"D-{name}", "DM")


def dm_cards(quiz: QuizHarness, name: str) -> list[Card]:
    where = dm(quiz, name)
    return [m.card for m in quiz.platform.messages if same_place(m.channel, where)]


def titles(quiz: QuizHarness, name: str) -> list[str]:
    """The DM's cards by title; the outline's as OUTLINE."""
    return [
        "OUTLINE" if card.kind is CardKind.OUTLINE else card.title for card in dm_cards(quiz, name)
    ]


async def write(quiz: QuizHarness, name: str, text: str) -> None:
    channel = dm(quiz, name)
    event_id = quiz.event_id()
    await quiz.service.handle(
        DirectMessage(
            event_id, channel, MessageRef(channel, f"dm{event_id}"), quiz.member(name), text
        )
    )
    await quiz.service.settle()


def is_outline(title: str) -> bool:
    return title == "OUTLINE"


async def test_a_practice_answer_is_read_and_its_card_follows_the_outline(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")  # its own follow-up: see the probe's tests
    await quiz.command("practice", by="ann")
    server.queue(ticks(*STRONG_TICKS))

    await write(quiz, "ann", STRONG)

    [request] = server.requests
    assert "A ring all-reduce passes every chunk" in json.dumps(request.body)
    assert not any(t.startswith("The coach") for t in titles(quiz, "ann"))  # no outline yet
    await write(quiz, "ann", "A tree halves the latency.")  # the follow-up's answer

    assert len(server.requests) == 1  # a follow-up's answer is not read
    shown = titles(quiz, "ann")
    outline = next(i for i, t in enumerate(shown) if is_outline(t))
    card_at = shown.index("The coach read your practice answer")
    assert card_at > outline
    card = dm_cards(quiz, "ann")[card_at]
    assert card.bullets[0].startswith(f"✓ 1. {KEY_POINTS[0]} — “A ring all-reduce passes")
    assert card.bullets[2] == f"✗ 2. {KEY_POINTS[1]}"
    assert "2 of 3 key points" in card.body
    # the channel card's three buttons, naming the practice reading
    assert [(b.label, b.value) for b in card.buttons] == [
        ("Accept", "r1"),
        ("Edit ticks", "r1"),
        ("Dismiss", "r1"),
    ]


async def test_a_reading_that_ends_after_the_outline_sends_its_card_then(
    quiz: QuizHarness, server: ScriptedEndpoint, clock: FakeClock
) -> None:
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")  # its own follow-up: see the probe's tests
    await quiz.command("practice", by="ann")
    server.queue(error(503, "overloaded"), ticks(*STRONG_TICKS))
    await write(quiz, "ann", STRONG)
    await write(quiz, "ann", "A tree halves the latency.")
    assert any(is_outline(t) for t in titles(quiz, "ann"))
    assert "The coach read your practice answer" not in titles(quiz, "ann")

    clock.advance(seconds=30)  # the outbox's backoff
    await quiz.service.settle()

    assert len(server.requests) == 2
    assert titles(quiz, "ann")[-1] == "The coach read your practice answer"


async def test_a_failing_endpoint_says_the_coach_is_unavailable(
    quiz: QuizHarness, server: ScriptedEndpoint, clock: FakeClock
) -> None:
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")  # its own follow-up: see the probe's tests
    await quiz.command("practice", by="ann")
    server.queue(*[error(503, "overloaded")] * 10)
    await write(quiz, "ann", STRONG)
    for _ in range(10):
        clock.advance(seconds=30)
        await quiz.service.settle()

    assert len(server.requests) == 4
    assert titles(quiz, "ann").count("The coach is unavailable") == 1
    assert "The coach read your practice answer" not in titles(quiz, "ann")


async def test_nothing_is_read_with_the_coach_off_everywhere_or_the_member_opted_out(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await quiz.command("practice", by="ann")  # the coach is off in every channel
    await write(quiz, "ann", STRONG)
    await write(quiz, "ann", "A tree.")
    await quiz.command("config coach on")
    await quiz.command("coach off", by="bob")
    await quiz.command("practice", by="bob")
    await write(quiz, "bob", STRONG)
    await write(quiz, "bob", "A tree.")

    assert server.requests == []
    assert not any(t.startswith("The coach") for t in titles(quiz, "ann") + titles(quiz, "bob"))


async def test_the_answer_read_is_exported_and_erased_with_the_member(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")  # its own follow-up: see the probe's tests
    await quiz.command("practice", by="ann")
    server.queue(ticks(*STRONG_TICKS))
    await write(quiz, "ann", STRONG)
    ann = await quiz.service.store.members.member_id(quiz.member("ann"))
    [kept] = (await quiz.service.store.member_data.member_tables(ann))["coach_practice_readings"]
    assert kept["answer"] == STRONG

    await quiz.command("forget me", by="ann")
    await quiz.command("forget me confirm", by="ann")

    tables = await quiz.service.store.member_data.member_tables(ann)
    assert tables["coach_practice_readings"] == []


async def test_the_card_waits_while_the_outlines_post_waits_for_a_retry(
    quiz: QuizHarness, server: ScriptedEndpoint, clock: FakeClock
) -> None:
    await quiz.command("config coach on")
    await quiz.command("coach probe off", by="ann")  # its own follow-up: see the probe's tests
    await quiz.command("practice", by="ann")
    server.queue(ticks(*STRONG_TICKS))
    await write(quiz, "ann", STRONG)
    quiz.platform.failures.append(PlatformError("the platform is down for a moment"))

    await write(quiz, "ann", "A tree halves the latency.")  # its outline's post fails

    assert not any(is_outline(t) for t in titles(quiz, "ann"))
    assert "The coach read your practice answer" not in titles(quiz, "ann")
    for _ in range(4):
        clock.advance(seconds=30)
        await quiz.service.settle()
    shown = titles(quiz, "ann")
    assert shown[-2:] == ["OUTLINE", "The coach read your practice answer"]
