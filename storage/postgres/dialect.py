"""The SQLite-flavoured SQL of the aggregate stores, as PostgreSQL runs it.

The schema is portable on purpose (text timestamps, 0/1 integers, JSON text), so the
aggregates' statements are too, except for what is rewritten here: ``?`` and ``:name``
placeholders become ``$1, $2, ...``, ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO
NOTHING``, and SQLite's ``INDEXED BY`` hints go. Each statement is translated once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# A quoted string, a '::' cast, or a placeholder: strings and casts are copied as they are.
_TOKEN = re.compile(r"'(?:[^']|'')*'|::|\?|(?<![:\w]):(?P<name>[A-Za-z_]\w*)")
_INSERT_OR_IGNORE = re.compile(r"\bINSERT\s+OR\s+IGNORE\b", re.IGNORECASE)
_INDEXED_BY = re.compile(r"\s+INDEXED\s+BY\s+\w+", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Statement:
    """A statement as PostgreSQL runs it, and the order of its parameters."""

    sql: str
    names: tuple[str, ...] | None  # the named parameters in order; None: positional ones

    def arguments(self, params: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
        if self.names is None:
            if isinstance(params, Mapping):
                raise TypeError("this statement takes positional parameters")
            return list(params)
        if not isinstance(params, Mapping):
            raise TypeError("this statement takes named parameters")
        return [params[name] for name in self.names]


@lru_cache(maxsize=1024)
def to_postgres(sql: str) -> Statement:
    """``sql`` with PostgreSQL placeholders and syntax."""
    names: list[str] = []
    positional = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal positional
        token = match.group(0)
        if token == "?":
            positional += 1
            return f"${positional}"
        name = match.group("name")
        if name is None:
            return token
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    text = _TOKEN.sub(replace, sql)
    if positional and names:
        raise ValueError("a statement mixes ? and :name placeholders")
    text = _INDEXED_BY.sub("", text)
    if _INSERT_OR_IGNORE.search(text):
        text = _INSERT_OR_IGNORE.sub("INSERT", text).rstrip().rstrip(";")
        if _RETURNING.search(text):
            raise ValueError("INSERT OR IGNORE ... RETURNING is not translated")
        text += " ON CONFLICT DO NOTHING"
    return Statement(text, tuple(names) if names else None)
