"""One llama.cpp server for the session's tests that need it, or a skip naming what is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration import llama_server


@pytest.fixture(scope="session")
def llama_cpp_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of llama-cpp-python's server with SmolLM2-135M-Instruct."""
    reason = llama_server.missing()
    if reason is not None:
        pytest.skip(reason)
    model = llama_server.model_file()
    assert model is not None
    log_file: Path = tmp_path_factory.mktemp("llama-server") / "server.log"
    try:
        with llama_server.running_server(model, log_file) as base_url:
            yield base_url
    except llama_server.BuildDoesNotRun as unusable:
        pytest.skip(str(unusable))
