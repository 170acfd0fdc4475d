"""How the coach compares words: the one normalisation quotes are checked with (and answers are
cached by), and the content words that tell an explanation from a restatement."""

from __future__ import annotations

import re
import unicodedata

# typographic characters a model writes for the plain ones the member typed (and back), the
# answer markers of the prompt, which stand in the answer as plain brackets, and chat markup
# (bold, italics, code, strike-through), which a model may keep or leave out of a quote
_FOLDED = str.maketrans(
    {
        "*": None,
        "_": None,
        "`": None,
        "~": None,
        "‘": "'",
        "’": "'",
        "‚": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "–": "-",
        "—": "-",
        "−": "-",
        "⟦": "[",
        "⟧": "]",
    }
)
_WHITESPACE = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")
# a word's first letters stand for the word: "shards", "sharded" and "sharding" are one word,
# so inflections pasted after a key point's words are not "new" words
_STEM_LENGTH = 5
_STOP_WORDS_TEXT = """
    a about above after again all also am an and any are as at be because been before being
    both but by can could did do does doing done each either etc for from had has have having
    he her here hers him his how i if in into is it its itself just let like may me might more
    most much must my no nor not now of off on once only or other our ours out over own per
    quite rather really same she should so some such than that the their theirs them then
    there these they this those though through thus to too under until up upon us very was we
    well were what when where whether which while who whom whose why will with within without
    would yes yet you your yours basically actually simply essentially generally usually
"""
_STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def normalised(text: str) -> str:
    """``text`` with case, runs of whitespace, typographic variants and chat markup ignored."""
    folded = unicodedata.normalize("NFKC", text).translate(_FOLDED).casefold()
    return _WHITESPACE.sub(" ", folded).strip()


def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words that carry meaning (stop words and one-letter words out)."""
    return frozenset(
        word[:_STEM_LENGTH]
        for word in _WORD.findall(normalised(text))
        if len(word) > 1 and word not in _STOP_WORDS
    )
