"""The bot sets its heap aside from the full garbage collections twice: what it loaded
before starting (modules, settings, the catalog), so the collections a start at 10,000
channels triggers do not scan all of it again, and what the start built, once it is up;
between the two, while the start builds, the collector is paused."""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pytest

from adapters.ops import runtime
from adapters.ops.heap import collections_paused, freeze_start_up_heap
from bot.service import QuizService
from bot.settings import Settings


def test_freezing_sets_every_tracked_object_aside() -> None:
    start_up = [{"settings": [n]} for n in range(20_000)]  # what a start-up builds
    # Frozen objects another thread frees right after the freeze leave the frozen set,
    # as in the whole suite, where earlier tests' threads may still drop theirs; the
    # count the freeze returned is only what was set aside at that moment.
    dropped_meanwhile = [[n] for n in range(100)]
    frozen = freeze_start_up_heap()
    dropped_meanwhile.clear()
    assert frozen >= 2 * len(start_up) + 100
    assert gc.get_freeze_count() >= 2 * len(start_up)
    # A collection of any generation now looks only at what was made after the start.
    collected = {id(item) for generation in range(3) for item in gc.get_objects(generation)}
    assert all(gc.is_tracked(item) for item in start_up[:3])
    assert id(start_up) not in collected
    assert not any(id(item) in collected for item in start_up)
    assert not any(id(item["settings"]) in collected for item in start_up)


async def test_the_bot_freezes_its_heap_before_and_once_it_is_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def freeze() -> int:
        calls.append("freeze")
        return 0

    real_start = QuizService.start

    async def start(service: QuizService) -> None:
        calls.append("start" if not gc.isenabled() else "start while collecting")
        await real_start(service)

    monkeypatch.setattr(runtime, "freeze_start_up_heap", freeze)
    monkeypatch.setattr(QuizService, "start", start)
    settings = Settings(_env_file=None, db_path=tmp_path / "q.db")  # type: ignore[call-arg]
    assert await runtime.run_bot(settings, stdin=io.StringIO(""), stdout=io.StringIO()) == 0
    # the collector paused while the start builds what lives on, and running again after
    assert calls == ["freeze", "start", "freeze"]
    assert gc.isenabled()


def test_the_collector_is_paused_within_and_as_it_was_after() -> None:
    with collections_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collections_paused():
            pass
        assert not gc.isenabled()  # a caller's own pause is not lifted
    finally:
        gc.enable()
