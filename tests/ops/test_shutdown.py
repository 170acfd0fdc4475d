"""SIGTERM mid-round: the bot exits 0, and the next start loses nothing and sends nothing twice."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

REPO = str(Path(__file__).resolve().parents[2])
EXIT_WITHIN = 15.0  # the shutdown budget is 10 s by default; scripted console work is instant


class Bot:
    """``quizbot run --platform console`` as a subprocess, fed one line at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.transcript: list[str] = []

    @classmethod
    async def start(cls, db: Path) -> Bot:
        env = {k: v for k, v in os.environ.items() if not k.startswith("QUIZBOT_")}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "adapters.cli.main",
            "run",
            "--platform",
            "console",
            "--db",
            str(db),
            env={**env, "PYTHONPATH": REPO},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def send(self, line: str, *, until: str) -> None:
        """Write ``line``, then read output until a line containing ``until`` appears."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), 30)
            assert raw, f"the bot ended before printing {until!r}: {self.transcript}"
            self.transcript.append(raw.decode().rstrip("\n"))
            if until in self.transcript[-1]:
                return

    async def finish(self) -> tuple[int, str, str]:
        """Wait for the exit without closing stdin (communicate() would close it)."""
        assert self.process.stdout is not None and self.process.stderr is not None
        out, err, code = await asyncio.wait_for(
            asyncio.gather(
                self.process.stdout.read(), self.process.stderr.read(), self.process.wait()
            ),
            EXIT_WITHIN,
        )
        return code, "\n".join([*self.transcript, out.decode()]), err.decode()


def count(lines: str, text: str) -> int:
    return sum(text in line for line in lines.splitlines())


async def test_sigterm_mid_round_loses_nothing_and_sends_nothing_twice(tmp_path: Path) -> None:
    db = tmp_path / "quiz.db"
    first = await Bot.start(db)
    await first.send("/quiz now", until="opened the thread")
    await first.send(":as alice", until="you are now alice")
    await first.send("alice's answer", until="alice: alice's answer")
    await first.send(":as bob", until="you are now bob")  # alice's answer was handled
    await first.send("bob's answer", until="bob: bob's answer")
    await first.send(":as carol", until="you are now carol")
    # mid-round: answers in, the outline not revealed yet
    first.process.send_signal(signal.SIGTERM)
    # End of input releases the console's stdin reader; exiting while input stays
    # open and idle is test_sigterm_exits_while_console_input_is_idle.
    assert first.process.stdin is not None
    first.process.stdin.close()
    code, out1, err1 = await first.finish()
    assert code == 0, err1
    assert "Traceback" not in err1
    assert count(out1, "quizbot: Question #1") == 1
    assert count(out1, "Sample answer outline") == 0

    second = await Bot.start(db)
    await second.send(":as dave", until="you are now dave")
    await second.send("dave's answer", until="dave: dave's answer")
    await second.send(":react 💡", until="Sample answer outline")
    await second.send("/quiz leaderboard all", until="Leaderboard")
    assert second.process.stdin is not None
    second.process.stdin.close()
    code, out2, err2 = await second.finish()
    assert code == 0, err2
    # the round went on where it stopped: no new question, no second thread
    assert count(out2, "quizbot: Question #") == 0
    assert count(out2, "opened the thread") == 0
    assert count(out2, "Sample answer outline") == 1
    for member in ("alice", "bob", "dave"):
        assert count(out2, f". {member} — ") == 1, out2

    with sqlite3.connect(db) as conn:
        answers = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        actions = conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall()
        rounds = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
    conn.close()
    assert (answers, rounds) == (3, 1)
    assert dict(actions).keys() == {"done"}


async def test_sigterm_exits_while_console_input_is_idle(tmp_path: Path) -> None:
    bot = await Bot.start(tmp_path / "quiz.db")
    await bot.send("/quiz now", until="opened the thread")
    await asyncio.sleep(0.5)  # let the reader block on the open, idle pipe
    bot.process.send_signal(signal.SIGTERM)
    try:
        code = await asyncio.wait_for(bot.process.wait(), 5)
    finally:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()
    assert code == 0
