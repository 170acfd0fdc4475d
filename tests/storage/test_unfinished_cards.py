"""The parts of unfinished multi-part sends, kept across a restart."""

from __future__ import annotations

from pathlib import Path

from storage.sqlite_store import SqliteStore


async def test_parts_are_kept_in_order_across_a_reopen_until_finished(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    async with SqliteStore.open(path) as store:
        assert await store.unfinished_cards.unfinished_card("round:1:outline") is None
        await store.unfinished_cards.begin_card("round:1:outline")
        assert await store.unfinished_cards.unfinished_card("round:1:outline") == []
        await store.unfinished_cards.record_card_part("round:1:outline", "1765000000.000001")
        await store.unfinished_cards.begin_card(
            "round:1:outline"
        )  # a retry begins again: nothing is lost
        await store.unfinished_cards.record_card_part("round:1:outline", "1765000000.000002")
        await store.unfinished_cards.record_card_part(
            "round:2:outline", "m9"
        )  # no begin: recorded all the same
    async with SqliteStore.open(path) as store:
        assert await store.unfinished_cards.unfinished_card("round:1:outline") == [
            "1765000000.000001",
            "1765000000.000002",
        ]
        assert await store.unfinished_cards.unfinished_card("round:2:outline") == ["m9"]
        await store.unfinished_cards.finish_card("round:1:outline")
        assert await store.unfinished_cards.unfinished_card("round:1:outline") is None
        assert await store.unfinished_cards.unfinished_card("round:2:outline") == ["m9"]
