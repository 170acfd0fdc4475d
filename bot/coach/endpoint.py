"""The coach's endpoint as a value: where, which model, the optional key, how long to wait.

The key is a :class:`~pydantic.SecretStr`: the value's repr, str and JSON show it masked,
and only :meth:`CoachEndpoint.authorization` reveals it, to the request it authorises.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, StringConstraints, field_validator

DEFAULT_CONNECT_TIMEOUT = 5.0
# one request; a small model on a CPU takes tens of seconds to read a prompt and answer
DEFAULT_REQUEST_TIMEOUT = 60.0
# from the answer to the last try: past it, the member is told the coach is unavailable
DEFAULT_DEADLINE = 600.0
DEFAULT_MAX_OUTPUT_TOKENS = 512

ModelName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class CoachEndpoint(BaseModel):
    """An OpenAI-compatible Chat Completions endpoint, e.g. ``http://127.0.0.1:8080/v1``."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    base_url: str
    model: ModelName
    api_key: SecretStr | None = None
    connect_timeout: float = Field(default=DEFAULT_CONNECT_TIMEOUT, gt=0)
    request_timeout: float = Field(default=DEFAULT_REQUEST_TIMEOUT, gt=0)
    deadline: float = Field(default=DEFAULT_DEADLINE, gt=0)
    max_output_tokens: int = Field(default=DEFAULT_MAX_OUTPUT_TOKENS, ge=16)

    @field_validator("base_url")
    @classmethod
    def _a_plain_http_base(cls, url: str) -> str:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("give the endpoint's base URL, e.g. http://127.0.0.1:8080/v1")
        # the URL is shown (the host in the channel's notice, the doctor's report): a secret
        # in it would be shown too
        if parts.username or parts.password:
            raise ValueError("put no credentials in the URL: the API key is a setting of its own")
        if parts.query or parts.fragment:
            raise ValueError("give the base URL without a query or fragment")
        return url.strip().rstrip("/")

    @field_validator("api_key")
    @classmethod
    def _no_blank_key(cls, key: SecretStr | None) -> SecretStr | None:
        return key if key is not None and key.get_secret_value().strip() else None

    @property
    def chat_completions_url(self) -> str:
        return f"{self.base_url}/chat/completions"

    @property
    def host(self) -> str:
        """What reads the answers, as the channel is told: ``api.openai.com``,
        ``127.0.0.1:8080``."""
        return urlsplit(self.base_url).netloc

    def authorization(self) -> dict[str, str]:
        """The request's Authorization header; none without a key (a local server)."""
        if self.api_key is None:
            return {}
        return {"Authorization": f"Bearer {self.api_key.get_secret_value()}"}

    def redact(self, text: str) -> str:
        """``text`` with the key masked, for an endpoint's error body that echoes it."""
        if self.api_key is None:
            return text
        return text.replace(self.api_key.get_secret_value(), "**********")
