"""The free text of a console command (an answer, a flag's reason, a review's reason) is
stored exactly as typed: quotes, backslashes and repeated spaces are not a shell's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.console.test_console import run_console

FLAG = r'use "torch.compile" and a\b path C:\\x'
ANSWER = r"shard   the 'KV cache' by head: `k = x\W` \\ done"
REJECTION = r'too close to "s1"  \n  (see C:\notes)'

SCRIPT = f"""/quiz config answers blind
/quiz now
:as alice
/quiz answer {ANSWER}
/quiz flag {FLAG}
/quiz suggest
topic: kv-cache-sizing
question: How large is the KV cache of a 70B model at 32k context?
outline: 2 x layers x KV heads x head dim x 2 bytes per token.
key_points: the per-token formula
GQA divides it by the group size
linear in the context length
.
:as you
/quiz review reject s1 {REJECTION}
"""


def test_free_text_of_commands_is_stored_as_typed(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    result = run_console(SCRIPT, db)
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as connection:
        [(answer,)] = connection.execute("SELECT text FROM answers").fetchall()
        [(flag,)] = connection.execute("SELECT reason FROM flags").fetchall()
        [(rejection,)] = connection.execute("SELECT reason FROM suggestions").fetchall()
    assert answer == ANSWER
    assert flag == FLAG
    assert rejection == REJECTION
