"""All channels are read a page at a time (the raw rows of 10,000 were a start's peak
resident size), on both backends: every channel once, in id order, whatever the count
against the page size."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage.sql.channels
from bot.kernel.models import ChannelSettings
from bot.kernel.refs import ChannelRef
from bot.store import Store
from tests.storage.backends import BACKENDS, open_store


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with open_store(request.param, tmp_path) as opened:
        yield opened


async def test_every_channel_is_read_once_a_page_at_a_time(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.sql.channels, "CHANNELS_PAGE", 2)
    assert await store.channels.list_channels() == []
    created = []
    for count in range(1, 6):  # 1 to 5 channels: a part page, a full one, two, ...
        ref = ChannelRef("fake", "team", f"C{count}", f"#quiz{count}")
        created.append(
            await store.channels.create_channel(
                ChannelSettings(0, ref, "Asia/Tokyo", "daily 09:00")
            )
        )
        assert await store.channels.list_channels() == created
