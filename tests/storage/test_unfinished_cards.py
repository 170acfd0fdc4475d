"""The parts of unfinished multi-part sends, kept across a restart, on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.storage.backends import BACKENDS, reopenable_store


@pytest.mark.parametrize("backend", BACKENDS)
async def test_parts_are_kept_in_order_across_a_reopen_until_finished(
    backend: str, tmp_path: Path
) -> None:
    async with reopenable_store(backend, tmp_path) as reopen:
        async with reopen() as store:
            cards = store.unfinished_cards
            assert await cards.unfinished_card("round:1:outline") is None
            await cards.begin_card("round:1:outline")
            assert await cards.unfinished_card("round:1:outline") == []
            await cards.record_card_part("round:1:outline", "1765000000.000001")
            await cards.begin_card("round:1:outline")  # a retry begins again: nothing is lost
            await cards.record_card_part("round:1:outline", "1765000000.000002")
            await cards.record_card_part("round:2:outline", "m9")  # no begin: recorded anyway
        async with reopen() as store:
            cards = store.unfinished_cards
            assert await cards.unfinished_card("round:1:outline") == [
                "1765000000.000001",
                "1765000000.000002",
            ]
            assert await cards.unfinished_card("round:2:outline") == ["m9"]
            await cards.finish_card("round:1:outline")
            assert await cards.unfinished_card("round:1:outline") is None
            assert await cards.unfinished_card("round:2:outline") == ["m9"]
