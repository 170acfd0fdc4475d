"""Fitting each workspace's FSRS parameters in the background: weekly and after an erasure.

A fit reads the workspace's pooled review log, runs :func:`bot.learning.parameter_fit.fit`
in a worker thread (never on the event loop, so no reply waits for it), and stores the
outcome, kept or not, with a log line of its figures. A fit that fails, or an optimizer
that is not installed, leaves the parameters in use as they were.

The parameters in use (the newest kept fit, else FSRS's defaults) are cached per workspace:
a fit kept on this replica replaces its entry at once (and rebuilds the stored cards, see
``on_kept``); another replica reads the store again once its entry is
:data:`PARAMETER_REFRESH` old, so it follows a fit kept elsewhere within minutes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.kernel.clock import Clock
from bot.learning.memory_model import DEFAULT_MODEL, MemoryModel
from bot.learning.parameter_fit import (
    DEFAULTS,
    MIN_REVIEWS,
    FitOutcome,
    Optimizer,
    Parameters,
    fit,
    forecastable,
    histories,
    rust_optimizer,
)
from bot.learning.parameter_store import FitRecord, FittedParameterStore
from bot.scheduling.slot_plans import Planned, slot_plan

log = logging.getLogger(__name__)

WEEKLY = slot_plan("sun 03:00", "UTC", 24)  # the weekly fit, at a quiet hour
PARAMETER_REFRESH = timedelta(minutes=5)  # a cached workspace's parameters are read again
# What a kept fit starts (the stored cards replayed under the new model), given the
# workspace; it returns at once, the work going on in the background.
OnKept = Callable[[str, str, MemoryModel], object]


@dataclass(frozen=True, slots=True)
class ParametersInUse:
    """What a workspace's memory model runs on: fitted parameters since a fit, or defaults."""

    parameters: Parameters
    since: datetime | None  # the kept fit's time; None: FSRS's defaults
    fit: FitRecord | None = None

    def model(self) -> MemoryModel:
        return DEFAULT_MODEL if self.fit is None else MemoryModel(self.parameters)

    def describe(self) -> str:
        """What the cards and forecasts run on: the kept fit since when, with its held-out
        log loss against the parameters it replaced; or FSRS's defaults."""
        if self.fit is None or self.since is None:
            return f"FSRS defaults (a fit needs {MIN_REVIEWS} reviews with a forecast)"
        outcome = self.fit.outcome
        return (
            f"fitted to the team's reviews, in use since {self.since:%Y-%m-%d %H:%M} UTC"
            f" (held-out log loss {outcome.loss_fitted:.4f} against {outcome.loss_before:.4f}"
            f" before, {outcome.held_out} reviews held out)"
        )


class ParameterFitting:
    """Fits workspaces' parameters, one fit at a time, off the event loop."""

    def __init__(
        self, store: FittedParameterStore, clock: Clock, optimizer: Optimizer | None = None
    ) -> None:
        self._store = store
        self._clock = clock
        self._optimizer = optimizer if optimizer is not None else rust_optimizer()
        self._one_at_a_time = asyncio.Lock()
        self._background: set[asyncio.Task[object]] = set()
        self._cached: dict[tuple[str, str], tuple[datetime, ParametersInUse]] = {}
        self.on_kept: OnKept | None = None

    async def in_use(self, platform: str, workspace: str) -> ParametersInUse:
        """The workspace's parameters in use, as read at most :data:`PARAMETER_REFRESH` ago."""
        now = self._clock.now()
        cached = self._cached.get((platform, workspace))
        if cached is not None and timedelta(0) <= now - cached[0] < PARAMETER_REFRESH:
            return cached[1]
        in_use = await self._read_in_use(platform, workspace)
        self._cached[(platform, workspace)] = (now, in_use)
        return in_use

    async def model(self, platform: str, workspace: str) -> MemoryModel:
        """The memory model the workspace's cards and forecasts run on."""
        return (await self.in_use(platform, workspace)).model()

    async def _read_in_use(self, platform: str, workspace: str) -> ParametersInUse:
        record = await self._store.in_use(platform, workspace)
        if record is None or record.outcome.parameters is None:
            return ParametersInUse(DEFAULTS, None)
        return ParametersInUse(record.outcome.parameters, record.fitted_at, record)

    async def fit_workspace(self, platform: str, workspace: str, reason: str) -> FitRecord | None:
        """Fit the workspace's log now; the stored record, or None when no fit was made (too
        few reviews, or no optimizer installed)."""
        if self._optimizer is None:
            log.warning(
                "%s/%s: fsrs-rs-python is not installed: FSRS's default parameters stay",
                platform,
                workspace,
            )
            return None
        async with self._one_at_a_time:
            reviews = await self._store.pooled_reviews(platform, workspace)
            current = await self._read_in_use(platform, workspace)
            count = forecastable(histories(reviews))
            if count < MIN_REVIEWS:
                log.info(
                    "%s/%s: %d reviews with a forecast, a fit needs %d: no fit",
                    platform,
                    workspace,
                    count,
                    MIN_REVIEWS,
                )
                return None
            outcome = await asyncio.to_thread(fit, reviews, current.parameters, self._optimizer)
            record = FitRecord(platform, workspace, self._clock.now(), reason, outcome)
            await self._store.record_fit(record)
            if outcome.kept:
                in_use = await self._read_in_use(platform, workspace)
                self._cached[(platform, workspace)] = (self._clock.now(), in_use)
        _log_fit(record)
        if outcome.kept and self.on_kept is not None:
            self.on_kept(platform, workspace, in_use.model())
        return record

    async def fit_all(self, reason: str) -> list[FitRecord]:
        """Fit every workspace that has grades; one failing does not stop the others."""
        records = []
        for platform, workspace in await self._store.workspaces_with_grades():
            try:
                record = await self.fit_workspace(platform, workspace, reason)
            except Exception:
                log.exception("%s/%s: the parameter fit failed", platform, workspace)
                continue
            if record is not None:
                records.append(record)
        return records

    def fit_in_background(self, platform: str, workspace: str, reason: str) -> asyncio.Task[object]:
        """Start a fit of the workspace and return at once (its task, for tests to await)."""
        task: asyncio.Task[object] = asyncio.create_task(
            self._logged(self.fit_workspace(platform, workspace, reason))
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _logged(self, work: Awaitable[object]) -> object:
        try:
            return await work
        except Exception:
            log.exception("a background parameter fit failed")
            return None

    # the weekly schedule (see bot.learning.feature)

    async def plans(self) -> Sequence[Planned]:
        return [(0, WEEKLY)]

    async def on_slot(self, _id: int, _slot: datetime) -> None:
        await self.fit_all("weekly")


def _log_fit(record: FitRecord) -> None:
    outcome: FitOutcome = record.outcome
    log.info(
        "%s/%s: parameter fit (%s) on %d reviews, %d held out: log loss %s in use, %s fitted; %s%s",
        record.platform,
        record.workspace,
        record.reason,
        outcome.reviews,
        outcome.held_out,
        _loss(outcome.loss_before),
        _loss(outcome.loss_fitted),
        "kept" if outcome.kept else "not kept",
        f" ({outcome.error})" if outcome.error else "",
    )


def _loss(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
