"""The answer coach in the running bot, on both store backends, against a scripted endpoint:
consent first, a first answer read beside the loop, the card only once the outline is out,
and nothing in the memory model or the points until the member accepts or edits."""

from __future__ import annotations

import json

from bot.coaching.cards import ACCEPT_ACTION, DISMISS_ACTION, EDIT_ACTION
from bot.kernel.events import ButtonPress, FormSubmit
from bot.kernel.grades import Grade
from bot.kernel.refs import MessageRef
from bot.kernel.render import Card, CardKind, Response
from bot.rounds.cards import REVIEW_ACTION
from tests.core.coach.scripted_endpoint import MODEL, ScriptedEndpoint, ticks
from tests.core.coaching.coached import KEY_POINTS, STRONG, STRONG_TICKS, coach_cards
from tests.core.reviews.test_peer_reviews import press as review_press
from tests.core.reviews.test_peer_reviews import submit as review_submit
from tests.harness import QuizHarness


async def coach_on(quiz: QuizHarness) -> Response:
    return await quiz.command("config coach on")


async def answered(quiz: QuizHarness, by: str = "ann", text: str = STRONG) -> str:
    await quiz.command("now")
    return await quiz.answer(by, text)


async def reveal(quiz: QuizHarness) -> None:
    await quiz.react("carol", "💡")


async def press(quiz: QuizHarness, by: str, card: Card, action: str) -> Response:
    [value] = [b.value for b in card.buttons if b.action == action]
    direct = quiz.channel.__class__(quiz.channel.platform, quiz.channel.workspace, f"D-{by}")
    response = await quiz.service.handle(
        ButtonPress(
            quiz.event_id(), direct, MessageRef(direct, "m-card"), quiz.member(by), action, value
        )
    )
    await quiz.service.settle()
    assert response is not None
    return response


async def answer_points(quiz: QuizHarness) -> dict[str, int]:
    round_ = await quiz.round()
    return {
        a.member_name: a.points for a in await quiz.service.store.answers.round_answers(round_.id)
    }


async def own_grade(quiz: QuizHarness, name: str) -> Grade | None:
    round_ = await quiz.round()
    member = await quiz.service.store.members.member_id(quiz.member(name))
    return (await quiz.service.store.learning.round_grades(round_.id)).get(member)


async def test_turning_it_on_tells_the_channel_once_what_reads_the_answers(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    said = await coach_on(quiz)

    assert said.card.kind is not CardKind.ERROR, said.card.body
    [told] = [m.card for m in quiz.platform.in_channel() if "coach is on" in m.card.title]
    host = server.base_url.split("//")[1].split("/")[0]
    assert f"the model {MODEL} at {host}" in told.body
    assert "/v1" not in told.body and "SECRET" not in told.body
    await quiz.command("config coach on")  # on already: not told again
    assert len([m for m in quiz.platform.in_channel() if "coach is on" in m.card.title]) == 1
    [shown] = (await quiz.command("config coach")).card.fields
    assert shown.value.startswith("on ·")


async def test_a_first_answer_is_read_beside_the_loop_and_shown_after_the_outline(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))

    await answered(quiz)

    [request] = server.requests
    sent = json.dumps(request.body)
    assert "A ring all-reduce passes every chunk" in sent
    assert "Ann" not in sent and '"ann"' not in sent.lower()
    assert coach_cards(quiz, "ann") == []  # the outline is not out yet

    await reveal(quiz)

    [card] = coach_cards(quiz, "ann")
    assert card.bullets[0].startswith(f"✓ 1. {KEY_POINTS[0]} — “A ring all-reduce passes")
    assert card.bullets[1].startswith(f"✓ 3. {KEY_POINTS[2]} — “Inside one server NVLink")
    assert card.bullets[2] == f"✗ 2. {KEY_POINTS[1]}"  # the key points not found, last
    assert "2 of 3 key points" in card.body and "proposes partly" in card.body
    assert [b.label for b in card.buttons] == ["Accept", "Edit ticks", "Dismiss"]
    assert await own_grade(quiz, "ann") is None  # nothing counts before Accept or Edit


async def test_accepting_records_the_grade_and_the_ticks_earn_quality_points(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    await reveal(quiz)
    before = (await answer_points(quiz))["Ann"]
    [card] = coach_cards(quiz, "ann")

    accepted = await press(quiz, "ann", card, ACCEPT_ACTION)

    assert "2 key points of 3" in accepted.card.body, accepted.card.body
    assert await own_grade(quiz, "ann") is Grade.PARTLY
    assert (await answer_points(quiz))["Ann"] > before


async def test_edited_ticks_grade_as_ticked_but_only_the_coachs_verified_ones_earn_points(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    await reveal(quiz)
    before = (await answer_points(quiz))["Ann"]
    [card] = coach_cards(quiz, "ann")

    opened = await press(quiz, "ann", card, EDIT_ACTION)
    assert opened.form is not None
    [covered] = opened.form.fields
    assert covered.value == "1 3" and covered.multiple
    # ann drops the coach's tick of point 3 and adds point 2 herself
    response = await quiz.service.handle(
        FormSubmit(
            quiz.event_id(),
            quiz.channel,
            quiz.member("ann"),
            opened.form.kind,
            opened.form.target,
            {"covered": "1 2"},
        )
    )
    assert response is not None and response.card.kind is not CardKind.ERROR

    assert await own_grade(quiz, "ann") is Grade.PARTLY  # 2 of 3, as she ticked
    one_tick = (await answer_points(quiz))["Ann"] - before
    await quiz.service.handle(
        FormSubmit(
            quiz.event_id(),
            quiz.channel,
            quiz.member("ann"),
            opened.form.kind,
            opened.form.target,
            {"covered": "1 3"},
        )
    )
    two_ticks = (await answer_points(quiz))["Ann"] - before
    assert 0 < one_tick < two_ticks  # her own tick of point 2 earned nothing


async def test_dismissing_records_nothing(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    await reveal(quiz)
    before = await answer_points(quiz)
    [card] = coach_cards(quiz, "ann")

    await press(quiz, "ann", card, DISMISS_ACTION)

    assert await own_grade(quiz, "ann") is None
    assert await answer_points(quiz) == before


async def test_another_members_card_is_refused(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz)
    await reveal(quiz)
    [card] = coach_cards(quiz, "ann")

    refused = await press(quiz, "bob", card, ACCEPT_ACTION)

    assert refused.card.kind is CardKind.ERROR and "another member" in refused.card.body
    assert await own_grade(quiz, "ann") is None


async def test_an_answer_after_the_reveal_gets_its_card_at_once(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    await quiz.command("now")
    await reveal(quiz)
    server.queue(ticks(*STRONG_TICKS))

    await quiz.answer("ann", STRONG)

    assert len(coach_cards(quiz, "ann")) == 1


async def test_nothing_is_sent_while_the_channel_has_it_off_or_the_member_opted_out(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await answered(quiz, "ann")  # the channel has it off
    await coach_on(quiz)
    opted = await quiz.command("coach off", by="bob")
    assert "reads none of your answers" in opted.card.body

    await quiz.answer("bob", STRONG)

    assert server.requests == []
    assert "reads none" in (await quiz.command("coach", by="bob")).card.body


async def test_the_same_answer_is_read_once(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))
    await answered(quiz, "ann")

    await quiz.answer(
        "bob",
        "  a RING all-reduce passes every chunk around the ring twice, once"
        " reducing and once gathering. Inside one server NVLink links the GPUs"
        " directly at very high speed.",
    )
    await reveal(quiz)

    assert len(server.requests) == 1
    assert coach_cards(quiz, "bob")[0].bullets == coach_cards(quiz, "ann")[0].bullets


async def test_stats_show_an_admin_the_months_requests_and_tokens(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))  # 100 prompt and 20 completion tokens
    await answered(quiz)

    admin = {f.name: f.value for f in (await quiz.command("stats")).card.fields}
    member = {f.name: f.value for f in (await quiz.command("stats", by="bob")).card.fields}

    assert admin["Answer coach this month (workspace, admins)"] == "1 requests, 120 tokens"
    assert not any("coach" in name.lower() for name in member)


async def test_a_blind_answer_is_read_too(quiz: QuizHarness, server: ScriptedEndpoint) -> None:
    await coach_on(quiz)
    await quiz.command("config answers blind")
    await quiz.command("now")
    server.queue(ticks(*STRONG_TICKS))

    saved = await quiz.command(f"answer {STRONG}", by="ann")

    assert saved.card.kind is not CardKind.ERROR, saved.card.body
    [request] = server.requests
    assert "Inside one server NVLink" in request.user_message
    assert coach_cards(quiz, "ann") == []
    await reveal(quiz)
    [card] = coach_cards(quiz, "ann")
    assert "2 of 3 key points" in card.body


async def test_stats_measure_the_coach_against_teammates_reviews(
    quiz: QuizHarness, server: ScriptedEndpoint
) -> None:
    await coach_on(quiz)
    server.queue(ticks(*STRONG_TICKS))  # the coach ticks 1 and 3
    await answered(quiz)
    await reveal(quiz)
    round_ = await quiz.round()
    form = (await review_press(quiz, "bob", REVIEW_ACTION, f"r{round_.id}")).form
    assert form is not None
    sent = await review_submit(
        quiz, "bob", form, {"answer": "1", "score": "3", "covered": "1 2", "comment": ""}
    )
    assert sent.card.kind is not CardKind.ERROR, sent.card.body

    fields = {f.name: f.value for f in (await quiz.command("stats")).card.fields}

    measured = fields["Answer coach against teammates' reviews (admins)"]
    assert measured.startswith("precision 50%, recall 50% on 1 answer both judged")
    assert "does not meet the stand-in rule" in measured
