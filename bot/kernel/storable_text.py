"""Text every store can keep: what a member typed, each character no backend can store
as text replaced by U+FFFD.

PostgreSQL refuses a NUL in text (``invalid byte sequence for encoding "UTF8": 0x00``),
and a lone surrogate (half of a UTF-16 pair, which a JSON payload may carry as
``\\ud83d``) cannot be encoded as UTF-8 by either database driver. Each is replaced
rather than removed: U+FFFD is Unicode's mark for a character that could not be
represented, so the member sees where something was, and the words on either side of it
never run together into one that means something else.

It is applied once, to each inbound event as it enters the core
(:class:`bot.inbound.InboundChain`), and to every text the event carries whatever field
holds it (an answer, a command's arguments and raw text, a form's values, a display
name), so no field is forgotten and everything after it (both stores, the cards sent
back, the logs) sees the same text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar, cast

REPLACEMENT = "\ufffd"
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")

T = TypeVar("T")
_FIELDS: dict[type, tuple[str, ...]] = {}  # by type: the few kinds events are made of


def storable(text: str) -> str:
    """``text`` with each NUL and lone surrogate replaced by U+FFFD."""
    return _UNSTORABLE.sub(REPLACEMENT, text) if _UNSTORABLE.search(text) else text


def storable_event(event: T) -> T:
    """The event (a frozen dataclass) with every text it holds made storable; the same
    object when nothing needed it."""
    return cast(T, _storable(event))


def _storable(value: Any) -> Any:
    """``value`` with its texts made storable: the same object when none changed."""
    if isinstance(value, str):
        return storable(value)
    names = _field_names(type(value))
    if names:
        changed = {}
        for name in names:
            before = getattr(value, name)
            after = _storable(before)
            if after is not before:
                changed[name] = after
        return replace(value, **changed) if changed else value
    if isinstance(value, tuple):
        items = tuple(_storable(item) for item in value)
        return value if items == value else items
    if isinstance(value, Mapping):
        pairs = {_storable(key): _storable(item) for key, item in value.items()}
        return value if pairs == dict(value) else pairs
    return value


def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass (an event, a reference); () for any other type."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else ()
    return names
