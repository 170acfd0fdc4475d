"""Read seed-format question documents and turn them into packs.

The format (see the original seed bank)::

    <title line>

    As asked
    <question text, one or more paragraphs>
    Sample answer outline
    <outline text, one or more paragraphs>
    Expect these follow-ups          (optional block)
    • <follow-up>
    • <another follow-up>

    As asked
    ...

Blank lines separate paragraphs; a text keeps its paragraph breaks as ``"\\n\\n"``
and its line breaks inside a paragraph as ``"\\n"``. LF, CRLF and CR line ends, a BOM,
any number of blank lines, headers in any letter case or with a trailing ':' are accepted.
Lines after a bullet (up to the next bullet or header) continue that follow-up; a
follow-ups header with no bullet under it means no follow-ups.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import yaml

from questions.errors import QuizError
from questions.pack import Pack

AS_ASKED = "As asked"
OUTLINE = "Sample answer outline"
FOLLOW_UPS = "Expect these follow-ups"
BULLET = "•"

_HEADERS = {h.casefold(): h for h in (AS_ASKED, OUTLINE, FOLLOW_UPS)}

# Words that say nothing about a question's subject, skipped when deriving its id.
_FILLER_TEXT = """
    a an and are as at be between by can could describe do does explain for from give how in is
    it its many much of on or should that the their them these this those to under what when
    where which while who why will with would you your
"""
_FILLER_WORDS = frozenset(_FILLER_TEXT.split())
_SLUG_WORDS = 4
_SLUG_MAX = 40
_SLUG_LIMIT = 64  # the pack model's limit


class SeedFormatError(QuizError, ValueError):
    """A document that does not follow the seed format; ``line`` is 1-based."""

    def __init__(self, line: int, detail: str) -> None:
        self.line = line
        self.detail = detail
        super().__init__(f"line {line}: {detail}")


@dataclass(frozen=True, slots=True)
class SeedQuestion:
    """A question as read from a seed document."""

    question: str
    outline: str
    follow_ups: tuple[str, ...]
    line: int  # the line of its 'As asked'


@dataclass(frozen=True, slots=True)
class SeedDocument:
    """All questions of a seed document, in order."""

    title: str
    questions: tuple[SeedQuestion, ...]


class _Kind(Enum):
    """What a line of a seed document is."""

    BLANK = "blank"
    TEXT = "text"
    HEADER = "header"


@dataclass(frozen=True, slots=True)
class _Line:
    """One classified line of a seed document."""

    number: int
    kind: _Kind
    text: str  # the header's canonical name for a HEADER line


def parse_seed(text: str) -> SeedDocument:
    """Parse a whole document; raises SeedFormatError at the first deviation."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [_classify(number, raw) for number, raw in enumerate(text.split("\n"), start=1)]
    last_line = max(1, len(lines) - 1 if text.endswith("\n") else len(lines))
    return _SeedParser(lines, last_line).parse()


def _classify(number: int, raw: str) -> _Line:
    line = raw.rstrip()
    stripped = line.strip()
    header = _HEADERS.get(stripped.rstrip(":").strip().casefold())
    if not stripped:
        return _Line(number, _Kind.BLANK, "")
    if header is not None:
        return _Line(number, _Kind.HEADER, header)
    return _Line(number, _Kind.TEXT, line)


class _SeedParser:
    """Reads a seed document line by line into questions."""

    def __init__(self, lines: list[_Line], last_line: int) -> None:
        self._lines = lines
        self._position = 0
        self._last_line = last_line  # where "the end of the document" is reported

    def parse(self) -> SeedDocument:
        title = self._title()
        questions: list[SeedQuestion] = []
        while (line := self._next_nonblank()) is not None:
            if line.text != AS_ASKED:
                where = "after the title" if not questions else "to start the next question"
                raise SeedFormatError(
                    line.number, f"expected {AS_ASKED!r} {where}, found {_show(line)}"
                )
            questions.append(self._question(line))
        if not questions:
            raise SeedFormatError(
                self._last_line, f"expected {AS_ASKED!r} after the title; there are no questions"
            )
        return SeedDocument(title, tuple(questions))

    def _title(self) -> str:
        first = self._next_nonblank()
        if first is None:
            raise SeedFormatError(1, "expected a title line; the document is empty")
        if first.kind is _Kind.HEADER:
            raise SeedFormatError(first.number, f"expected a title line before {first.text!r}")
        return first.text.strip()

    def _question(self, as_asked: _Line) -> SeedQuestion:
        body, after = self._body()
        question = _join(body)
        if not question:
            raise SeedFormatError(self._at(after), f"expected the question text after {AS_ASKED!r}")
        if after is None or after.text != OUTLINE:
            raise SeedFormatError(
                self._at(after),
                f"expected {OUTLINE!r} after the question text, found {_show(after)}",
            )
        body, after = self._body()
        outline = _join(body)
        if not outline:
            raise SeedFormatError(self._at(after), f"expected the outline text after {OUTLINE!r}")
        follow_ups: tuple[str, ...] = ()
        if after is not None and after.text == FOLLOW_UPS:
            body, after = self._body()
            follow_ups = _follow_ups(body)
            expected = f"another follow-up or {AS_ASKED!r}"
        else:
            expected = f"{FOLLOW_UPS!r} or {AS_ASKED!r}"
        if after is not None and after.text != AS_ASKED:
            raise SeedFormatError(after.number, f"expected {expected}, found {_show(after)}")
        if after is not None:
            self._position -= 1  # leave the next 'As asked' for parse()
        return SeedQuestion(question, outline, follow_ups, as_asked.number)

    def _body(self) -> tuple[list[_Line], _Line | None]:
        """The lines up to the next header, and that header (consumed; None at the end)."""
        body: list[_Line] = []
        while self._position < len(self._lines):
            line = self._lines[self._position]
            self._position += 1
            if line.kind is _Kind.HEADER:
                return body, line
            body.append(line)
        return body, None

    def _next_nonblank(self) -> _Line | None:
        while self._position < len(self._lines):
            line = self._lines[self._position]
            self._position += 1
            if line.kind is not _Kind.BLANK:
                return line
        return None

    def _at(self, line: _Line | None) -> int:
        return self._last_line if line is None else line.number


def _follow_ups(body: list[_Line]) -> tuple[str, ...]:
    """Bullets; lines after a bullet (up to the next one) continue that follow-up."""
    items: list[tuple[int, list[_Line]]] = []
    for line in body:
        stripped = line.text.strip()
        if stripped.startswith(BULLET):
            first = stripped.removeprefix(BULLET).strip()
            items.append((line.number, [_Line(line.number, _Kind.TEXT, first)] if first else []))
        elif items:
            items[-1][1].append(line)
        elif line.kind is _Kind.TEXT:
            raise SeedFormatError(
                line.number, f"expected a follow-up starting with {BULLET!r}, found text"
            )
    follow_ups: list[str] = []
    for number, lines in items:
        text = _join(lines)
        if not text:
            raise SeedFormatError(number, f"expected the follow-up text after {BULLET!r}")
        follow_ups.append(text)
    return tuple(follow_ups)


def _join(lines: Sequence[_Line]) -> str:
    """Lines into text: paragraphs (split by blank lines) joined by a blank line."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.kind is _Kind.BLANK:
            if paragraphs[-1]:
                paragraphs.append([])
        else:
            paragraphs[-1].append(line.text)
    return "\n\n".join("\n".join(p).strip() for p in paragraphs if p)


def _show(line: _Line | None) -> str:
    if line is None:
        return "the end of the document"
    if line.kind is _Kind.HEADER:
        return repr(line.text)
    return "text"


def slugify(text: str, *, max_length: int = _SLUG_LIMIT) -> str:
    """Lowercase ASCII words joined by '-', cut at a word boundary; '' when nothing is left."""
    return _join_words(_ascii_words(text), max_length)


def question_ids(texts: Sequence[str]) -> list[str]:
    """Short, unique ids derived from question texts (``q1``, ``q2`` when no words remain)."""
    ids: list[str] = []
    taken: set[str] = set()
    for number, text in enumerate(texts, start=1):
        subject = [w for w in _ascii_words(text) if w not in _FILLER_WORDS]
        words = list(dict.fromkeys(subject))[:_SLUG_WORDS]  # each word once, in order
        base = _join_words(words, _SLUG_MAX) or f"q{number}"
        candidate, suffix = base, 2
        while candidate in taken:
            candidate, suffix = f"{base}-{suffix}", suffix + 1
        taken.add(candidate)
        ids.append(candidate)
    return ids


def _ascii_words(text: str) -> list[str]:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", ascii_text.lower())


def _join_words(words: Sequence[str], max_length: int) -> str:
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    return slug or "-".join(words)[:max_length].strip("-")


def pack_from_seed(document: SeedDocument, *, pack_id: str, topic: str) -> Pack:
    """A pack of the document's questions, all in one topic; raises pydantic.ValidationError."""
    ids = question_ids([q.question for q in document.questions])
    return Pack.model_validate(
        {
            "id": pack_id,
            "title": document.title,
            "version": 1,
            "questions": [
                {
                    "id": question_id,
                    "topic": topic,
                    "question": q.question,
                    "outline": q.outline,
                    "follow_ups": list(q.follow_ups),
                }
                for question_id, q in zip(ids, document.questions, strict=True)
            ],
        }
    )


class _BlockText(str):
    """A string the pack dumper writes as a ``|`` block scalar when YAML allows it."""


class _PackDumper(yaml.SafeDumper):
    """Writes packs as readable YAML (block strings for long texts)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # indent list items under their key


def _represent_block(dumper: yaml.SafeDumper, text: _BlockText) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(text), style="|")


_PackDumper.add_representer(_BlockText, _represent_block)


def _follow_up_yaml(follow_up: str | dict[str, str]) -> _BlockText | dict[str, _BlockText]:
    """A follow-up as written: its text alone, or its ask and notes (each a block)."""
    if isinstance(follow_up, str):
        return _BlockText(follow_up)
    return {key: _BlockText(text) for key, text in follow_up.items()}


def pack_to_yaml(pack: Pack, *, header: str = "") -> str:
    """Readable YAML for a pack: texts as block scalars, a blank line between questions."""
    data = pack.model_dump(mode="json", exclude_defaults=True)
    data["version"] = pack.version
    for question in data["questions"]:
        for field in ("question", "outline"):
            question[field] = _BlockText(question[field])
        question["follow_ups"] = [_follow_up_yaml(f) for f in question.get("follow_ups", [])]
        for correction in question.get("corrections", []):
            correction["fact"] = _BlockText(correction["fact"])
    ordered = {
        key: data[key]
        for key in ("id", "title", "description", "version", "questions")
        if key in data
    }
    body = yaml.dump(ordered, Dumper=_PackDumper, sort_keys=False, allow_unicode=True, width=100)
    # Questions are items at indent 2; text inside block scalars is indented deeper.
    body = body.replace("\n  - id: ", "\n\n  - id: ").replace("questions:\n\n", "questions:\n")
    return header + body
