"""A channel's topic choice on both backends: every topic (stored as NULL), the topics
turned off (new ones join enabled), only the topics turned on (new ones join disabled);
and a plain list, as stored before new topics joined enabled, still reads as the only
topics on, its meaning when it was written."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.kernel.models import ChannelSettings, FollowUpPolicy
from bot.kernel.refs import ChannelRef
from bot.kernel.topic_choice import TopicChoice
from bot.store import Store
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.storage.backends import BACKENDS, open_store


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def a_channel(store: Store) -> ChannelSettings:
    return await store.channels.create_channel(
        ChannelSettings(
            id=0,
            ref=ChannelRef("fake", "team", "C1", "practice"),
            timezone="UTC",
            followup_policy=FollowUpPolicy.AFTER_FIRST_ANSWER,
        )
    )


@pytest.mark.parametrize(
    "choice",
    [
        TopicChoice(),
        TopicChoice(off=frozenset({"gpu", "rdma"})),
        TopicChoice(only=frozenset({"gpu"})),
        TopicChoice(only=frozenset()),
    ],
)
async def test_a_topic_choice_reads_back_as_written(
    backend: str, tmp_path: Path, choice: TopicChoice
) -> None:
    async with open_store(backend, tmp_path) as store:
        created = await a_channel(store)
        assert created.topics == TopicChoice()
        await store.channels.update_channel(created, replace(created, topics=choice))
        assert (await store.channels.get_channel_by_id(created.id)) == replace(
            created, topics=choice
        )


async def test_a_list_stored_before_reads_as_the_only_topics_on(
    backend: str, tmp_path: Path
) -> None:
    async with open_store(backend, tmp_path) as store:
        created = await a_channel(store)
        assert isinstance(store, SqliteStore | PostgresStore)
        async with store.database.transaction() as session:
            await session.execute(
                "UPDATE channels SET topics = ? WHERE id = ?", ('["gpu", "rdma"]', created.id)
            )
        read = await store.channels.get_channel_by_id(created.id)
        assert read is not None and read.topics == TopicChoice(only=frozenset({"gpu", "rdma"}))
        assert not read.topics.new_topics_enabled
