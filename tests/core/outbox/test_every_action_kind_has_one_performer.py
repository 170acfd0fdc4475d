"""Every kind of outbox action (the stored vocabulary, ``ActionKind``) is performed by one
feature's performer once the service is built; ``DIRECT`` (a card to one member's direct
messages) the outbox sends itself. A kind no feature performs would stay queued forever."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bot.kernel.models import ActionKind
from questions.catalog import Catalog
from tests.fakes import FakeClock, FakePlatform
from tests.harness import running_service


async def test_every_action_kind_but_direct_has_exactly_one_performer(
    tmp_path: Path, platform: FakePlatform, clock: FakeClock, catalog: Catalog
) -> None:
    async with running_service(tmp_path / "quiz.db", [platform], clock, catalog) as service:
        declared = Counter(p.kind for parts in service.parts for p in parts.performers)
        registered = service.performers.kinds
    expected = {kind: 1 for kind in ActionKind if kind is not ActionKind.DIRECT}
    assert dict(declared) == expected
    assert registered == set(expected)
