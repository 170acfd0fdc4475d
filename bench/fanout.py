"""Fan-out cost: one slot firing for 1,000 and for 10,000 channels at once.

Builds a database per size with the project's migrations (every channel on the
same schedule), starts the service with its background outbox worker on a
platform that answers at once (rate limits off), fires the slot through the
scheduler's job the channels share (``slot_firing.py``: the job records the
rounds channel after channel while the outbox sends the first ones), and waits
until every question, thread and hint reaction was handed to the platform. Prints, per
size, the time to the first and the last post, the process CPU per channel, and
the RSS before the slot and after it (after a garbage collection), then the
CPU-per-channel ratio of the large size to the small one. Target: ratio <= 1.1.

    python bench/fanout.py [--sizes 1000 10000] [--policy after_first_answer|immediately|mixed]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import tempfile
import time
from pathlib import Path

from bench_platform import BenchPlatform
from slot_firing import (
    POLICIES,
    SlotClock,
    create_channels,
    fire_slot,
    next_slot_time,
    service_before_the_slot,
)

TARGET_RATIO = 1.1


def _rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


async def fan_out(path: Path, channels: int) -> dict[str, float]:
    platform = BenchPlatform("slack")
    clock = SlotClock(next_slot_time())
    async with service_before_the_slot(path, platform, clock) as (service, listed, expected):
        gc.collect()
        rss_before = _rss_mb()
        cpu, started = time.process_time(), time.perf_counter()
        firing = fire_slot(service, clock, listed[0].id)
        await platform.until_calls(expected)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        await firing
        first = (platform.first_post_at or started) - started
        last = (platform.last_post_at or started) - started
        gc.collect()
        rss_after = _rss_mb()
    return {
        "wall": wall,
        "cpu_ms_per_channel": cpu * 1000 / channels,
        "first": first,
        "last": last,
        "rss_before": rss_before,
        "rss_after": rss_after,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=(1_000, 10_000))
    parser.add_argument("--policy", choices=(*POLICIES, "mixed"), default="after_first_answer")
    args = parser.parse_args()
    # Start-up logs each channel's slot of this morning as missed: not what is measured here.
    logging.getLogger("bot.rounds.slots").setLevel(logging.ERROR)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for channels in args.sizes:
            path = Path(tmp, f"fanout-{channels}.db")
            policies = POLICIES if args.policy == "mixed" else (args.policy,)
            asyncio.run(create_channels(path, channels, policies))
            result = asyncio.run(fan_out(path, channels))
            results[channels] = result
            print(
                f"  {channels:>6,} channels: first post {result['first']:6.2f} s,"
                f" last post {result['last']:6.2f} s, all done {result['wall']:6.2f} s,"
                f" CPU {result['cpu_ms_per_channel']:5.2f} ms/channel,"
                f" RSS {result['rss_before']:5.1f} -> {result['rss_after']:5.1f} MB"
            )
    small, large = (results[n]["cpu_ms_per_channel"] for n in args.sizes)
    ratio = large / small
    print(
        f"fan-out CPU per channel, {args.sizes[1]:,} vs {args.sizes[0]:,}: ratio {ratio:.2f}"
        f" (target <= {TARGET_RATIO}: {'ok' if ratio <= TARGET_RATIO else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
