"""``python -m questions.overlaps``: what the overlap checks find in a bank, for reviewers.

Prints every overlap the four checks find (what the bank's test fails on), then the closest
pairs by meaning with their scores, flagged or not, and the terms that weigh most in each,
so a reviewer can judge a finding, see how far below the threshold the next pair is and
tune it with the whole list in view.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from questions import meaning
from questions.loader import bundled_packs_dir, load_pack
from questions.overlaps import overlaps
from questions.pack import Question

DEFAULT_TOP = 30


def report(questions: Sequence[Question], top: int = DEFAULT_TOP) -> str:
    """The overlaps found among ``questions`` and their ``top`` closest pairs by meaning."""
    started = time.perf_counter()
    found = overlaps(questions)
    seconds = time.perf_counter() - started
    lines = [f"{len(questions)} questions checked in {seconds:.1f} s: {len(found)} overlap(s)"]
    lines += [f"  {overlap}" for overlap in found]
    lines += [
        "",
        f"Closest {top} pairs by meaning (the same from {meaning.FOLLOW_UP_THRESHOLD:.2f} with a"
        f" follow-up, {meaning.QUESTION_THRESHOLD:.2f} between two questions):",
    ]
    for pair in meaning.scored_pairs(questions)[:top]:
        mark = "SAME" if pair.same else "    "
        terms = ", ".join(meaning.shared_terms(pair, count=5))
        lines.append(f"  {pair.score:.3f} {mark} {pair.first} ~ {pair.second}  [{terms}]")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m questions.overlaps", description=__doc__)
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PACK", help="pack files (default: the bundled)"
    )
    parser.add_argument("--top", type=int, default=DEFAULT_TOP, help="closest pairs to list")
    args = parser.parse_args(argv)
    paths = args.paths or sorted(bundled_packs_dir().glob("*.y*ml"))
    questions = [question for path in paths for question in load_pack(path).questions]
    print(report(questions, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
