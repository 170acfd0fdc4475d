"""Text from members made safe to print on a terminal (the console, the command line).

What members typed (an answer, a flag's reason, a display name, a workspace's name) may
hold control characters: an escape sequence would drive the reader's terminal (retitle it,
hide lines, rewrite the screen) and a newline would start a line that looks like the
listing's own. Every control character is shown escaped instead (``\\n``, ``\\x1b``), and so are the
bidirectional overrides that reorder what is shown; everything else, emoji included, is
printed as it was typed.
"""

from __future__ import annotations

import unicodedata

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Unicode's explicit direction embeddings, overrides and isolates (and their ends).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """``text`` on one line, with every control character written as an escape."""
    if text.isprintable():
        return text
    return "".join(_escaped(char) for char in text)


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    if unicodedata.category(char) == "Cc":
        return f"\\x{ord(char):02x}"
    if char in _BIDI_CONTROLS:
        return f"\\u{ord(char):04x}"
    return char
