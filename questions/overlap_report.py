"""``python -m questions.overlaps``: what the overlap checks find in a bank, for reviewers.

Prints every overlap the four checks find (what the bank's test fails on), then the closest
pairs by meaning with their scores, flagged or not, and the terms that weigh most in each,
so a reviewer can judge a finding, see how far below the threshold the next pair is and
tune it with the whole list in view. ``quizbot packs overlaps`` prints the same.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from questions import meaning
from questions.loader import PackError, bundled_packs_dir, load_packs
from questions.overlaps import Overlap, overlaps
from questions.pack import Question

DEFAULT_TOP = 30


def report(questions: Sequence[Question], top: int = DEFAULT_TOP) -> tuple[list[Overlap], str]:
    """The overlaps found among ``questions``, and a text of them and of the ``top`` closest
    pairs by meaning."""
    started = time.perf_counter()
    found = overlaps(questions)
    seconds = time.perf_counter() - started
    lines = [f"{len(questions)} questions checked in {seconds:.1f} s: {len(found)} overlap(s)"]
    lines += [f"  {overlap}" for overlap in found]
    lines += [
        "",
        f"Closest {top} pairs by meaning (the same from {meaning.FOLLOW_UP_THRESHOLD:.2f} with a"
        f" follow-up, {meaning.QUESTION_THRESHOLD:.2f} between two questions; SEEN: found"
        " distinct by a reviewer):",
    ]
    for pair in meaning.scored_pairs(questions)[:top]:
        mark = "SAME" if pair.same else "SEEN" if pair.close else "    "
        terms = ", ".join(meaning.shared_terms(pair, count=5))
        lines.append(f"  {pair.score:.3f} {mark} {pair.first} ~ {pair.second}  [{terms}]")
    return found, "\n".join(lines)


def run(paths: Sequence[Path], top: int = DEFAULT_TOP) -> int:
    """Print the report on the packs in ``paths`` (files or directories): 0 when the checks
    find no overlap, 1 when they do or a pack is invalid."""
    try:
        packs = load_packs(paths)
    except PackError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    questions = [question for pack in packs for question in pack.questions]
    found, text = report(questions, top)
    print(text)
    return 1 if found else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m questions.overlaps", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.paths or [bundled_packs_dir()], args.top)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The report's arguments, for ``python -m questions.overlaps`` and ``quizbot packs``."""
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="a pack file or a directory of them (default: the bundled packs)",
    )
    parser.add_argument("--top", type=int, default=DEFAULT_TOP, help="closest pairs to list")


if __name__ == "__main__":
    sys.exit(main())
