"""Deterministic message nonces and history markers derived from outbox keys.

Discord deduplicates a message create carrying ``enforce_nonce`` and a nonce it
has seen from the same author in the same channel within a few minutes, and
caps nonces at 25 characters. An outbox key such as ``round:42:question`` is
turned into a positive 63-bit integer (at most 19 digits, fits a signed
64-bit field), so a retried send of the same action never duplicates.

Because Discord forgets nonces after minutes, each message also carries a short
marker (in its embed footer) that :meth:`find_sent` recognises in channel
history after a longer outage.
"""

from __future__ import annotations

import hashlib

_NONCE_BITS = 63
MARKER_PREFIX = "ref "


def nonce_for_key(key: str, part: int = 0) -> int:
    """The nonce of part ``part`` of the message sent for outbox ``key``."""
    if not key:
        raise ValueError("an outbox key is required to derive a nonce")
    if part < 0:
        raise ValueError("part must be zero or positive")
    material = key if part == 0 else f"{key}#{part}"
    digest = hashlib.blake2b(material.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << _NONCE_BITS) - 1)


def marker_for_key(key: str, part: int = 0) -> str:
    """The short text put in the footer of the message, e.g. ``ref 1f0c…`` (16 hex digits)."""
    return f"{MARKER_PREFIX}{nonce_for_key(key, part):016x}"
