"""`/quiz dashboard` on the console: the link is printed privately, whole on one line (a
wrapped link could not be opened), and the bot's web server answers it."""

from __future__ import annotations

import re
import socket
from pathlib import Path

from tests.console.test_console import run_console


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_console_prints_whole_links(tmp_path: Path) -> None:
    port = free_port()
    script = "/quiz now\n/quiz dashboard\n:as alice\n/quiz dashboard me\n"

    result = run_console(script, tmp_path / "q.db", "--http-port", str(port))

    assert result.returncode == 0, result.stderr
    links = re.findall(r"http://127\.0\.0\.1:\d+/dashboard/\S+", result.stdout)
    assert [link.split("?")[0] for link in links] == [
        f"http://127.0.0.1:{port}/dashboard/lead",
        f"http://127.0.0.1:{port}/dashboard/member",
    ]
    assert all(re.search(r"&s=[0-9a-f]{64}$", link) for link in links), links
    assert "quizbot → you (private)" in result.stdout
    assert "quizbot → alice (private)" in result.stdout
