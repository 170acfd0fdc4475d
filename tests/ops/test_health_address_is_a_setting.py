"""The health port's address is the setting QUIZBOT_HEALTH_HOST, 127.0.0.1 by default; the
container images set 0.0.0.0, since a published port reaches the container's own
interface, never its loopback."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from adapters.ops import health, runtime
from bot.settings import Settings, load_settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_default_is_localhost_and_the_environment_may_change_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.delenv("QUIZBOT_HEALTH_HOST", raising=False)
    assert load_settings().health_host == "127.0.0.1"
    monkeypatch.setenv("QUIZBOT_HEALTH_HOST", "0.0.0.0")
    assert load_settings().health_host == "0.0.0.0"


async def test_the_bot_serves_health_on_the_configured_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bound: list[str] = []

    async def start(port: int, *args: Any, **kwargs: Any) -> health.HealthServer:
        assert port == 8080
        server = await health.start_health_server(0, *args, **kwargs)  # any free port
        bound.extend(address[0] for address in server.runner.addresses)
        return server

    monkeypatch.setattr(runtime, "start_health_server", start)
    for configured in ({}, {"health_host": "::1"}):
        values: dict[str, Any] = {"db_path": tmp_path / "q.db", "http_port": 8080, **configured}
        settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
        assert await runtime.run_bot(settings, stdin=io.StringIO(""), stdout=io.StringIO()) == 0
    assert bound == ["127.0.0.1", "::1"]


def test_the_container_images_listen_on_every_interface() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^\s+QUIZBOT_HEALTH_HOST=0\.0\.0\.0\b", dockerfile, re.M)
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    service = compose["services"]["quizbot"]
    assert service["environment"]["QUIZBOT_HEALTH_HOST"] == "0.0.0.0"
    assert "127.0.0.1:8080:8080" in service["ports"]  # published to the host's loopback only
    unit = (DEPLOY / "quizbot.service").read_text()
    assert "QUIZBOT_HEALTH_HOST" not in unit  # on the host itself: the default, localhost
