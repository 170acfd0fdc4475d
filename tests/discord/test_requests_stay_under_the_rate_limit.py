"""REST calls are paced under Discord's global limit before they are sent."""

from __future__ import annotations

import asyncio
import itertools

from discord.http import Route

from adapters.discord.pacing import GlobalPacer, is_paced
from bot.kernel.platform import SendSlots
from bot.kernel.refs import ChannelRef
from bot.kernel.render import Card
from tests.discord.conftest import PlatformFactory
from tests.discord.fake_discord import CHANNEL_ID, FakeDiscord
from tests.fakes import FakeMonotonic


async def test_the_pacer_spaces_requests_and_lets_posts_go_before_reactions() -> None:
    clock = FakeMonotonic()
    pacer = GlobalPacer(10.0, monotonic=clock.monotonic, sleep=clock.sleep)
    order: list[tuple[str, float]] = []

    async def request(name: str, *, deferrable: bool = False) -> None:
        await pacer.wait(deferrable=deferrable)
        order.append((name, round(clock.now, 3)))

    await asyncio.gather(
        request("post-1"),
        request("hint-1", deferrable=True),
        request("post-2"),
        request("hint-2", deferrable=True),
        request("post-3"),
    )

    assert [name for name, _ in order] == ["post-1", "post-2", "post-3", "hint-1", "hint-2"]
    times = [at for _, at in order]
    assert all(round(b - a, 3) >= 0.1 for a, b in itertools.pairwise(times))
    assert times[-1] - times[0] < 0.41  # no slower than the rate either


def test_interaction_responses_the_gateway_and_other_hosts_are_not_paced() -> None:
    base = Route.BASE
    assert is_paced(f"{base}/channels/1/messages")
    assert is_paced(f"{base}/channels/1/messages/2/reactions/%F0%9F%92%A1/@me")
    assert not is_paced(f"{base}/interactions/1/token/callback")
    assert not is_paced(f"{base}/webhooks/1/token/messages/@original")
    assert not is_paced("wss://gateway.discord.gg/?v=10&encoding=json")
    assert not is_paced("https://cdn.discordapp.com/avatars/1/a.png")


async def test_a_burst_of_posts_to_many_channels_stays_under_the_global_limit(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.global_limit = 25
    channels = [CHANNEL_ID + n for n in range(30)]
    for channel_id in channels[1:]:
        fake.add_channel(channel_id, f"quiz-{channel_id}")
    platform = await make_platform(requests_per_second=20.0)
    before = len(fake.requests)

    await asyncio.gather(
        *(
            platform.post(
                ChannelRef("discord", str(fake.guild_id), str(channel_id)),
                Card(title="Q"),
                key=f"round:{channel_id}:question",
            )
            for channel_id in channels
        )
    )

    assert fake.rate_limited == 0
    assert len(fake.requests) - before == 30
    assert all(len(fake.channel_messages(c)) == 1 for c in channels)


async def test_a_channels_message_bucket_is_respected_before_sending(
    fake: FakeDiscord, make_platform: PlatformFactory
) -> None:
    fake.channel_message_limit = 2
    fake.bucket_seconds = 0.3
    platform = await make_platform()
    channel = ChannelRef("discord", str(fake.guild_id), str(fake.channel_id))

    for number in range(5):
        await platform.post(channel, Card(title=f"Q{number}"), key=f"round:{number}:question")

    assert fake.rate_limited == 0
    assert len(fake.channel_messages()) == 5


async def test_the_platform_asks_for_enough_rounds_in_flight_to_use_its_budget(
    make_platform: PlatformFactory,
) -> None:
    # A round's question, thread and hint go one after the other: at 45 requests a second
    # with Discord answering in 300 ms, 14 must be in flight; 8 send slots gave 25 a second
    # (200 channels in 20.7 s, 1.9x the floor). Up to a second's round trip is covered.
    paced = await make_platform(requests_per_second=45.0, start=False)
    assert isinstance(paced, SendSlots)
    assert paced.send_slots >= 45
    unpaced = await make_platform(requests_per_second=None, start=False)
    assert unpaced.send_slots == 0  # the outbox's own number


async def test_with_requests_always_waiting_the_pacer_uses_its_whole_budget() -> None:
    clock = FakeMonotonic()
    pacer = GlobalPacer(45.0, monotonic=clock.monotonic, sleep=clock.sleep)
    released: list[float] = []

    async def request() -> None:
        await pacer.wait()
        released.append(clock.now)

    await asyncio.gather(*(request() for _ in range(135)))
    start = released[0]
    per_second = [sum(1 for at in released if s <= at - start < s + 1) for s in range(3)]
    assert per_second == [45, 45, 45]  # the budget, never more, every second
