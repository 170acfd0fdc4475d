"""The terms of a text as the meaning check reads them.

Two texts that ask or answer the same thing in other words share few literal words, so
before counting, a text is brought to a common vocabulary:

- **Concepts.** Domain synonyms and paraphrases become one term (:data:`CONCEPTS`): "MIG",
  "multi-instance GPU", "a 1g.10gb slice" and "MIG instance" are all MIG; "recompiles",
  "retrace" and "guard failure" all say a graph is compiled again; "manifest", "marker" and
  "commit atomically" all name a checkpoint's commit point.
- **Figures.** A number keeps its unit as one term (``400 Gb/s`` is ``400gb/s``, apart from
  ``50 GB/s``), thousands separators dropped, so a figure an answer computes matches the same
  figure elsewhere and not a bare ``400``.
- **Word forms.** Words lose common inflections ("slicing", "sliced" and "slices" are one
  term) and common English words are left out; adjacent terms also count as a pair.

A review that finds two asks the check missed because they say one thing in different
words adds the synonym to :data:`CONCEPTS`; it must hold across the whole field, not only
for that pair.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

_I = re.IGNORECASE
CONCEPTS: tuple[tuple[str, str], ...] = (
    # GPU sharing
    (r"\b[1-7]g(?:\.\d+gb)? (?:slice|instance)s?\b|\b[1-7]g\.\d+gb\b"
     r"|\bmig (?:slice|instance|device)s?", "mig-slice"),
    (r"multi[- ]instance gpus?|\bmig\b", "mig"),
    (r"multi[- ]process service|\bmps\b", "mps"),
    (r"time[- ]?slic\w*|tak\w* turns", "time-slicing"),
    (r"\bsame (?:physical )?gpus?\b|\bshar(?:e|es|ed|ing) (?:a|one|the) (?:\w+[- ])?gpus?\b"
     r"|another process|other (?:process|service)s?\b", "shared-gpu"),
    (r"\bgpu_memory_utilization\b|memory fraction|memory (?:caps?|limits?)\b"
     r"|limited to an? (?:equal )?fraction", "memory-cap"),
    (r"out[- ]of[- ]memory|\booms?\b|runs? out of memory|running out of memory", "oom"),
    # compilation
    (r"\bretrac\w*|\brecompil\w*|\bguards? fail\w*|compiles? (?:again|another graph)", "recompile"),
    (r"\bdynamic shapes?|(?:input|new|changing) shapes?|varying (?:batch|sequence) \w+"
     r"|variable sequence lengths?", "changing-shapes"),
    (r"\bbucket\w*|\bpad(?:s|ded|ding)?\b", "bucketing"),
    # checkpoints and storage
    (r"\bmanifest\w*|\bmarker (?:file|object)s?|commit\w* atomically|\batomic(?:ally)? commit\w*"
     r"|commit point", "commit-point"),
    (r"\bobject stor\w*|\bs3\b|\bbuckets? \(s3\)", "object-storage"),
    # cluster operations
    (r"health[- ]?checks?|healthcheckprogram|\bnhc\b|node-problem-detector", "health-check"),
    (r"\bprolog\b|\bepilog\b", "prolog-epilog"),
    (r"\bdrain\w*|\bcordon\w*|\btaint\w*", "drain"),
    (r"\bstraggl\w*|\bslowest\b|\bslow (?:rank|gpu|node)s?\b", "straggler"),
    (r"\b(?:hot )?spares?\b", "spare"),
    (r"\bxids?\b", "xid"),
    (r"\becc\b|error[- ]correct\w* code", "ecc"),
    # networks
    (r"\binfiniband\b|\bib\b", "infiniband"),
    (r"\brail[- ]optimi[sz]ed\b|\brails?\b", "rail"),
    (r"\bnics?\b|\bhcas?\b|network adapters?", "nic"),
    (r"pcie gen ?5(?: x16)?|\bgen ?5 x16\b", "pcie-gen5"),
    (r"\bndr\b", "ndr-400g"),
    (r"\bgpudirect rdma\b|\bgdr(?:dma)?\b", "gpudirect-rdma"),
    # multi-datacenter training
    (r"\bdiloco\b|local[- ]sgd", "diloco"),
)  # fmt: skip
"""Patterns of one domain concept in different words, each with the concept's term; where
two match at one place, the first listed wins."""

_CONCEPT = re.compile("|".join(f"(?P<c{i}>{p})" for i, (p, _) in enumerate(CONCEPTS)), _I)

_STOPWORDS = frozenset({
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
    "before", "but", "by", "can", "do", "does", "each", "every", "for", "from", "has", "have",
    "how", "if", "in", "into", "is", "it", "its", "more", "most", "no", "not", "of", "on",
    "one", "only", "or", "other", "our", "over", "per", "same", "so", "some", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "to", "under", "up",
    "was", "we", "what", "when", "where", "which", "while", "who", "why", "will", "with",
    "would", "you", "your",
})  # fmt: skip
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_UNITS = (
    r"gb/s|gib/s|tb/s|gbit/s|tbit/s|gbps|mb/s|gb|gib|tb|tib|mb|mib|kib|kw|mw|w|tflops|pflops"
    r"|ms|µs|us|%"
)
_FIGURE = re.compile(rf"(\d+(?:\.\d+)?)\s*({_UNITS})(?![\w/])", _I)
_TERM = re.compile(r"[a-z0-9%µ]+(?:[._/%-][a-z0-9%µ]+)*")
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "e", "ly")


def stem(word: str) -> str:
    """``word`` without a common inflection: slicing, sliced and slices are all ``slic``."""
    if not word.isalpha() or len(word) <= 4:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def normalized(text: str) -> str:
    """``text`` in lowercase, with figures joined to their units and concepts named."""
    text = _FIGURE.sub(lambda match: f"{match[1]}{_unit(match[2])}", _THOUSANDS.sub("", text))
    text = text.lower()
    return _CONCEPT.sub(_concept, text)


@lru_cache(maxsize=8192)
def terms(text: str) -> tuple[str, ...]:
    """The terms of ``text`` in order: concepts, figures and stemmed words (remembered: a
    bank is checked several times by its tests)."""
    words = _TERM.findall(normalized(text))
    return tuple(
        stem(w) for w in words if w not in _STOPWORDS and not (len(w) == 1 and w.isalpha())
    )


def term_counts(text: str, weight: float = 1.0) -> dict[str, float]:
    """Each term of ``text`` and each pair of adjacent terms, counted ``weight`` each."""
    found = terms(text)
    counts: dict[str, float] = {}
    for term in (*found, *(f"{a} {b}" for a, b in pairwise(found))):
        counts[term] = counts.get(term, 0.0) + weight
    return counts


def _concept(match: re.Match[str]) -> str:
    assert match.lastgroup is not None  # every alternative is a named group
    return f" {CONCEPTS[int(match.lastgroup[1:])][1]} "


def _unit(unit: str) -> str:
    """The unit in lowercase, bits per second kept apart from bytes per second."""
    if re.fullmatch(r"[kMGT]b/s|[kMGT]bit/s|[kMGT]bps", unit, _I) and "B/s" not in unit:
        return f"{unit[0].lower()}bit/s"
    return unit.lower()
