"""A round started on one replica takes the answers the platform delivers to another,
which knew the channel's round before: none is acknowledged and dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.storage.backends import BACKENDS
from tests.storage.replica_pair import two_replicas


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_answer_to_a_round_another_replica_opened_is_recorded(
    backend: str, tmp_path: Path
) -> None:
    async with two_replicas(backend, tmp_path) as pair:
        await pair.a.command("now")
        await pair.b.answer("ann", "round one: b knows this round is open")
        await pair.a.command("now")  # a closes round 1 and opens round 2

        await pair.b.answer("bob", "round two, delivered to b")
        await pair.a.answer("cid", "round two, delivered to a")
        await pair.b.answer("ann", "round two, delivered to b again")

        first, second = [
            await pair.b.service.store.rounds.round_by_number((await pair.b.round()).channel_id, n)
            for n in (1, 2)
        ]
        assert first is not None and second is not None
        answers = await pair.a.service.store.answers.round_answers(second.id)
        assert sorted(a.text for a in answers) == [
            "round two, delivered to a",
            "round two, delivered to b",
            "round two, delivered to b again",
        ]
        assert [a.text for a in await pair.a.service.store.answers.round_answers(first.id)] == [
            "round one: b knows this round is open"
        ]
