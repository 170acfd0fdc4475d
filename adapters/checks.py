"""One line of ``quizbot doctor``'s report: what was checked, whether it passed, what to fix.

The doctor's own checks and each platform's (``adapters/<name>/doctor.py``) make them.
"""

from __future__ import annotations

from dataclasses import dataclass

NETWORK_TIMEOUT = 10.0  # seconds a check may wait for a server
MAX_PROBLEMS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the doctor's report: what was checked, whether it passed, what to fix."""

    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        if self.ok:
            return f"ok    {self.name}: {self.detail}"
        fix = f"\n      fix: {self.fix}" if self.fix else ""
        return f"FAIL  {self.name}: {self.detail}{fix}"
