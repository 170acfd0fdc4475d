"""Headless Chromium driven over the DevTools protocol (CDP) with aiohttp's websocket
client, which the bot already uses: no browser-driver package to install.

:class:`Browser` starts Debian's ``chromium`` with a throw-away profile, opens a tab, lets
every request of the page through the request interception (``Fetch``) only when it goes to
the allowed origin and fails it otherwise, recording each, and reads back what the page
shows (its text, how many elements match a selector) and a screenshot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
STARTUP_SECONDS = 30.0
PAGE_SECONDS = 30.0


def chromium_path() -> str | None:
    """Where a Chromium is installed (QUIZBOT_TEST_CHROMIUM, else Debian's), or None."""
    wanted = os.environ.get("QUIZBOT_TEST_CHROMIUM")
    for path in (wanted, *CANDIDATES):
        if path and Path(path).is_file() and os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


@dataclass
class Loaded:
    """A page as the browser got it."""

    status: int | None
    headers: dict[str, str]
    text: str
    requests: list[str] = field(default_factory=list)  # every URL the page asked for
    blocked: list[str] = field(default_factory=list)  # those outside the allowed origin


class Tab:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, session_id: str) -> None:
        self._ws = ws
        self._session = session_id
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif data.get("sessionId") == self._session:
                await self._events.put(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids) + 1_000_000  # apart from the browser-level calls' ids
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = done
        await self._ws.send_json(
            {"id": number, "method": method, "params": params, "sessionId": self._session}
        )
        reply = await asyncio.wait_for(done, PAGE_SECONDS)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return dict(reply.get("result", {}))

    async def open(self, url: str, allowed_origin: str) -> Loaded:
        """Load ``url``; every request is recorded, and let through only to the origin."""
        await self.send("Network.enable")
        await self.send("Page.enable")
        await self.send("Fetch.enable", patterns=[{"urlPattern": "*"}])
        while not self._events.empty():
            self._events.get_nowait()
        await self._ws.send_json(
            {
                "id": 1,
                "method": "Page.navigate",
                "params": {"url": url},
                "sessionId": self._session,
            }
        )
        loaded = Loaded(None, {}, "")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PAGE_SECONDS
        while True:
            event = await asyncio.wait_for(self._events.get(), deadline - loop.time())
            method, params = event.get("method"), event.get("params", {})
            if method == "Fetch.requestPaused":
                asked = params["request"]["url"]
                loaded.requests.append(asked)
                if asked.startswith(allowed_origin):
                    await self.send("Fetch.continueRequest", requestId=params["requestId"])
                else:
                    loaded.blocked.append(asked)
                    await self.send(
                        "Fetch.failRequest",
                        requestId=params["requestId"],
                        errorReason="BlockedByClient",
                    )
            elif method == "Network.responseReceived" and params.get("type") == "Document":
                response = params["response"]
                loaded.status = int(response["status"])
                loaded.headers = {k.lower(): v for k, v in response["headers"].items()}
            elif method == "Page.loadEventFired":
                break
        loaded.text = await self.evaluate("document.body ? document.body.innerText : ''")
        return loaded

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def count(self, selector: str) -> int:
        return int(await self.evaluate(f"document.querySelectorAll({json.dumps(selector)}).length"))

    async def screenshot(self, path: Path) -> Path:
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        await asyncio.to_thread(path.write_bytes, base64.b64decode(shot["data"]))
        return path

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


@contextlib.asynccontextmanager
async def browser(executable: str) -> AsyncIterator[Browser]:
    profile = Path(tempfile.mkdtemp(prefix="chromium-profile-"))
    process = await asyncio.create_subprocess_exec(
        executable,
        "--headless=new",
        "--no-sandbox",  # as root in a container there is no user namespace to sandbox in
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",  # no update or safe-browsing call of its own
        "--disable-component-update",
        "--disable-sync",
        "--metrics-recording-only",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
        "--remote-debugging-port=0",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        endpoint = await _devtools_endpoint(profile, process)
        async with aiohttp.ClientSession() as http, http.ws_connect(endpoint, max_msg_size=0) as ws:
            yield Browser(ws)
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
        shutil.rmtree(profile, ignore_errors=True)


async def _devtools_endpoint(profile: Path, process: asyncio.subprocess.Process) -> str:
    """The browser's DevTools websocket, from the file it writes once it listens."""
    active = profile / "DevToolsActivePort"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STARTUP_SECONDS
    while loop.time() < deadline:
        if process.returncode is not None:
            raise RuntimeError(f"chromium exited with {process.returncode} on start")
        if active.exists():
            lines = active.read_text().splitlines()
            if len(lines) >= 2:
                return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        await asyncio.sleep(0.05)  # polling a file the browser writes, not a scheduled time
    raise RuntimeError(f"chromium did not listen within {STARTUP_SECONDS:g} s")


class Browser:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws

    async def new_tab(self) -> Tab:
        await self._ws.send_json(
            {"id": 1, "method": "Target.createTarget", "params": {"url": "about:blank"}}
        )
        target = await self._reply(1)
        await self._ws.send_json(
            {
                "id": 2,
                "method": "Target.attachToTarget",
                "params": {"targetId": target["targetId"], "flatten": True},
            }
        )
        attached = await self._reply(2)
        return Tab(self._ws, attached["sessionId"])

    async def _reply(self, number: int) -> dict[str, Any]:
        while True:
            message = await asyncio.wait_for(self._ws.receive(), PAGE_SECONDS)
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"the browser closed its DevTools socket ({message.type})")
            data = json.loads(message.data)
            if data.get("id") == number:
                if "error" in data:
                    raise RuntimeError(str(data["error"]))
                return dict(data["result"])
