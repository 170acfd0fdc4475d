"""Slack's request signature, checked on the raw bytes before anything parses them.

Slack signs ``v0:<timestamp>:<body>`` with the app's signing secret (HMAC-SHA256)
and sends the hex digest as ``X-Slack-Signature: v0=<digest>`` with the
timestamp (whole seconds) in ``X-Slack-Request-Timestamp``. A request older or
newer than five minutes is refused, so a captured request cannot be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable, Mapping

MAX_AGE_SECONDS = 300
TIMESTAMP_HEADER = "x-slack-request-timestamp"
SIGNATURE_HEADER = "x-slack-signature"
# Seconds since 1970 stay below 12 digits for another 30,000 years.
MAX_TIMESTAMP_DIGITS = 12


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:
        value = next((v for k, v in headers.items() if k.lower() == name), None)
    return value


class RequestVerifier:
    """Checks Slack's signature and timestamp of a request on its raw body."""

    def __init__(self, secret: str, *, now: Callable[[], float] = time.time) -> None:
        self._secret = secret.encode()
        self._now = now

    def problem(self, body: bytes, headers: Mapping[str, str]) -> str | None:
        """Why the request is not Slack's (a short reason for the log), or None."""
        stamp = _header(headers, TIMESTAMP_HEADER)
        signature = _header(headers, SIGNATURE_HEADER)
        if stamp is None or signature is None:
            return "no signature or timestamp header"
        if not (stamp.isascii() and stamp.isdigit()) or len(stamp) > MAX_TIMESTAMP_DIGITS:
            return "the timestamp is not whole seconds"
        if abs(self._now() - int(stamp)) > MAX_AGE_SECONDS:
            return "the timestamp is more than 5 minutes off"
        digest = hmac.new(self._secret, b"v0:" + stamp.encode() + b":" + body, hashlib.sha256)
        expected = "v0=" + digest.hexdigest()
        if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
            return "the signature does not match"
        return None
