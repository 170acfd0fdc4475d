"""Database URLs as logs and errors may show them: never with the password."""

from __future__ import annotations


def hide_password(url: str) -> str:
    """``postgresql://bot:secret@db/quiz`` as ``postgresql://bot:***@db/quiz``."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    return f"{scheme}{sep}{credentials.split(':', 1)[0]}:***@{host}"


def url_password(url: str) -> str | None:
    """The password of ``postgresql://bot:secret@db/quiz``: ``secret``; None without one."""
    _, _, rest = url.partition("://")
    credentials, at, _ = rest.rpartition("@")
    if not at or ":" not in credentials:
        return None
    return credentials.split(":", 1)[1] or None
