"""Logging for ``quizbot run``: readable text or one JSON object per line, secrets redacted.

Every record passes a :class:`SecretRedactor` on the root handler, so a token
that ends up in a message, an argument, an exception or an extra field is
replaced before anything is written.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TextIO

from pydantic import BaseModel, SecretStr

from bot.settings import LOG_LEVELS, Settings, SettingsError

REDACTED = "[redacted]"
# Context a record may carry as ``extra=``; shown in text lines and as JSON fields.
CONTEXT_FIELDS = ("platform", "channel", "round")
# Shorter values would redact ordinary words; real tokens are far longer.
MIN_SECRET_LENGTH = 6
# Token shapes redacted even when they are not configured (e.g. read from elsewhere).
_TOKEN_SHAPES = re.compile(r"\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{6,}")
_STANDARD_ATTRIBUTES = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "taskName"}
)


def secret_values(*settings: BaseModel) -> list[str]:
    """The values of every ``SecretStr`` setting of ``settings`` that is set, longest first."""
    values = {
        value.get_secret_value()
        for each in settings
        for name in type(each).model_fields
        if isinstance(value := getattr(each, name), SecretStr)
    }
    return sorted((v for v in values if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True)


class Redactor:
    """Replaces known secret values and token-shaped strings in text."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted(
            {s for s in secrets if len(s) >= MIN_SECRET_LENGTH}, key=len, reverse=True
        )

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return _TOKEN_SHAPES.sub(REDACTED, text)


class SecretRedactor(logging.Filter):
    """Rewrites a record so that no secret reaches a handler's output."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self.redact = redact

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        # The formatter must use the redacted text, not format the exception again.
        record.exc_info = None
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for name, value in list(record.__dict__.items()):
            if name not in _STANDARD_ATTRIBUTES and isinstance(value, str):
                setattr(record, name, self.redact(value))
        return True


def record_context(record: logging.LogRecord) -> dict[str, Any]:
    """The platform/channel/round extras a record carries."""
    return {name: getattr(record, name) for name in CONTEXT_FIELDS if getattr(record, name, None)}


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message [platform=… channel=… round=…]``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = record_context(record)
        if not context:
            return line
        head, newline, rest = line.partition("\n")
        tags = " ".join(f"{key}={value}" for key, value in context.items())
        return f"{head} [{tags}]{newline}{rest}"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, context, exception."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(record_context(record))
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


class _QuizbotHandler(logging.StreamHandler[TextIO]):
    """Marks the handler this module installed, so reconfiguring replaces it."""


def configure_logging(
    settings: Settings,
    *,
    level: str | None = None,
    stream: TextIO | None = None,
    also: Iterable[BaseModel] = (),
) -> None:
    """Install the one root handler: format from ``settings.log_format``, the secrets of
    ``settings`` and of ``also`` (the platforms' settings) redacted.

    ``level`` overrides ``settings.log_level``; ``stream`` defaults to stderr.
    """
    chosen = (level or settings.log_level).upper()
    if chosen not in LOG_LEVELS:
        raise SettingsError(f"unknown log level {chosen!r}; use one of {', '.join(LOG_LEVELS)}")
    handler = _QuizbotHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_format == "json" else TextFormatter())
    handler.addFilter(SecretRedactor(Redactor(secret_values(settings, *also))))
    root = logging.getLogger()
    for existing in list(root.handlers):
        if isinstance(existing, _QuizbotHandler) or type(existing) is logging.StreamHandler:
            root.removeHandler(existing)
            if isinstance(existing, _QuizbotHandler):
                existing.close()
    root.addHandler(handler)
    root.setLevel(chosen)
