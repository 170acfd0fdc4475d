"""The endpoint's settings as a value: a plain base URL, an optional key, the host shown."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from bot.coach.endpoint import CoachEndpoint


def endpoint(url: str, key: str | None = None) -> CoachEndpoint:
    return CoachEndpoint(
        base_url=url, model="m", api_key=SecretStr(key) if key is not None else None
    )


def test_the_completions_url_follows_the_base_url_without_its_trailing_slash() -> None:
    made = endpoint(" http://127.0.0.1:8080/v1/ ")
    assert made.base_url == "http://127.0.0.1:8080/v1"
    assert made.chat_completions_url == "http://127.0.0.1:8080/v1/chat/completions"


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://api.openai.com/v1", "api.openai.com"),
        ("http://10.0.0.5:11434/v1", "10.0.0.5:11434"),
    ],
)
def test_the_host_is_what_the_channel_is_told_reads_the_answers(url: str, host: str) -> None:
    assert endpoint(url).host == host


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("127.0.0.1:8080/v1", "base URL"),
        ("ftp://models.example/v1", "base URL"),
        ("https://user:sk-in-the-url@api.example/v1", "no credentials"),
        ("https://api.example/v1?api-version=1", "without a query"),
    ],
)
def test_a_url_that_is_no_plain_http_base_is_refused(url: str, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem) as refused:
        endpoint(url)
    assert "sk-in-the-url" not in str(refused.value)


def test_the_authorization_header_is_sent_only_with_a_key() -> None:
    assert endpoint("http://localhost/v1").authorization() == {}
    assert endpoint("http://localhost/v1", "  ").authorization() == {}
    assert endpoint("http://localhost/v1", "sk-1").authorization() == {
        "Authorization": "Bearer sk-1"
    }


def test_the_limits_must_be_positive() -> None:
    with pytest.raises(ValidationError, match="request_timeout"):
        CoachEndpoint(base_url="http://localhost/v1", model="m", request_timeout=0)
    with pytest.raises(ValidationError, match="model"):
        CoachEndpoint(base_url="http://localhost/v1", model=" ")
