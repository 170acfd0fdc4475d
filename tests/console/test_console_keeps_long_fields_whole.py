"""The console's form has no length limit: an outline far longer than a Slack or Discord
modal holds survives an edit of another field whole."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.console.test_console import run_console

LONG_OUTLINE = ("Page the KV cache in fixed blocks and share the prefix. " * 260).strip()

SCRIPT = f"""/quiz now
:as alice
/quiz suggest
topic: kv-cache-sizing
question: How large is the KV cache of a 70B model at 32k context?
outline: {LONG_OUTLINE}
key_points: the per-token formula
GQA divides it by the group size
linear in the context length
.
:as you
/quiz review edit s1
topic: inference
.
"""


def test_a_long_outline_survives_an_edit_on_the_console(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    result = run_console(SCRIPT, db)
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as connection:
        [(body,)] = connection.execute("SELECT body FROM suggestions").fetchall()
    question = json.loads(body)
    assert question["topic"] == "inference"
    assert question["outline"] == LONG_OUTLINE and len(LONG_OUTLINE) > 14_000
