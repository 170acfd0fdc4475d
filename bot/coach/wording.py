"""How the coach compares words: the one normalisation quotes are checked with (and answers are
cached by), and the content words that tell an explanation from a restatement."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Normalised:
    """A text with case, runs of whitespace, typographic variants and chat markup ignored,
    and where each of its characters came from, so a passage found in it can be shown as the
    text itself has it."""

    text: str
    source: str  # the text as given (composed: NFC)
    origins: tuple[int, ...]  # each character's index in ``source``

    def source_of(self, start: int, end: int) -> str:
        """The passage of ``source`` that ``text[start:end]`` (not empty) came from, with the
        markup right around it (``**bold**``, not ``bold**``)."""
        first, last = self.origins[start], self.origins[end - 1] + 1
        while first > 0 and _vanishes(self.source[first - 1]):
            first -= 1
        while last < len(self.source) and _vanishes(self.source[last]):
            last += 1
        return self.source[first:last]


def normalise(text: str) -> Normalised:
    """``text`` normalised character by character, keeping each one's origin."""
    source = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    origins: list[int] = []
    after_space = True  # no leading whitespace
    for index, character in enumerate(source):
        for folded in _folded(character):
            if folded.isspace():
                if after_space:
                    continue
                folded, after_space = " ", True
            else:
                after_space = False
            kept.append(folded)
            origins.append(index)
    if kept and kept[-1] == " ":
        kept.pop()
        origins.pop()
    return Normalised("".join(kept), source, tuple(origins))


def _folded(character: str) -> str:
    return unicodedata.normalize("NFKC", character).translate(_FOLDED).casefold()


def _vanishes(character: str) -> bool:
    return not _folded(character)


def normalised(text: str) -> str:
    """``text`` with case, runs of whitespace, typographic variants and chat markup ignored."""
    return normalise(text).text


def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words that carry meaning (stop words and one-letter words out)."""
    return frozenset(
        word[:_STEM_LENGTH]
        for word in _WORD.findall(normalised(text))
        if len(word) > 1 and word not in _STOP_WORDS
    )
