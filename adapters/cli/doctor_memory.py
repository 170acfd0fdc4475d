"""``quizbot doctor``'s line on the memory model: which FSRS parameters each workspace runs
on (fitted to its reviews, and since when, or FSRS's defaults) and its latest fit."""

from __future__ import annotations

import importlib.util
from collections.abc import Awaitable, Callable
from typing import Any

from adapters.checks import Check
from bot.learning.parameter_fit import MIN_REVIEWS
from storage.database import Database

ReadTable = Callable[[Database, str, str], Awaitable[list[tuple[Any, ...]]]]

_FITS = (
    "SELECT platform, workspace, fitted_at, kept, loss_before, loss_fitted, error"
    " FROM fitted_parameters ORDER BY platform, workspace, fitted_at, id"
)


async def check_memory_parameters(database: Database, read_table: ReadTable) -> Check:
    """Which parameters are in use where (never failing: defaults are a working model)."""
    optimizer = importlib.util.find_spec("fsrs_rs_python") is not None
    rows = await read_table(database, "fitted_parameters", _FITS)
    latest: dict[str, tuple[Any, ...]] = {}
    kept: dict[str, tuple[Any, ...]] = {}
    for row in rows:
        where = f"{row[0]}/{row[1]}"
        latest[where] = row
        if row[3]:
            kept[where] = row
    parts = []
    for where in sorted(latest):
        last = latest[where]
        tried = f"last fit {last[2]}: {'kept' if last[3] else 'not kept'}"
        if where in kept:
            fit = kept[where]
            parts.append(
                f"{where} parameters fitted to the team's reviews, in use since {fit[2]}"
                f" (held-out log loss {fit[5]:.4f} against {fit[4]:.4f} before; {tried})"
            )
        else:
            parts.append(f"{where} FSRS defaults ({tried})")
    shown = "; ".join(parts) or f"FSRS defaults everywhere (a fit needs {MIN_REVIEWS} reviews)"
    if not optimizer:
        return Check(
            "memory model",
            True,
            f"{shown}; fsrs-rs-python is not installed, so no fit is made",
            "install quizbot's locked requirements to fit parameters to the team",
        )
    return Check("memory model", True, shown)
