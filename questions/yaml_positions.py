"""YAML parsed with safe-loading semantics, keeping the node tree so errors can name a line."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import yaml

Location = Sequence[str | int]


@dataclass(frozen=True, slots=True)
class PositionedDocument:
    """The value ``yaml.safe_load`` would return, plus the nodes it was built from."""

    data: object
    root: yaml.Node | None


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    """A key that appears twice in one YAML mapping, with its line."""

    location: tuple[str | int, ...]
    line: int
    first_line: int


def parse_with_positions(text: str) -> PositionedDocument:
    """Parse one YAML document exactly as ``yaml.safe_load`` would; raises ``yaml.YAMLError``."""
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        data = None if root is None else loader.construct_document(root)
    finally:
        loader.dispose()
    return PositionedDocument(data, root)


def node_line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def line_of(root: yaml.Node, location: Location) -> int:
    """The 1-based line of the deepest node on ``location`` that exists.

    A mapping entry is reported at its key's line; a location that goes past
    what the document holds (a missing field) stops at the enclosing node.
    """
    node, line = root, node_line(root)
    for part in location:
        step = _step(node, part)
        if step is None:
            break
        node, line = step
    return line


def duplicate_keys(root: yaml.Node) -> list[DuplicateKey]:
    """Keys that appear twice in one mapping (``safe_load`` silently keeps the last)."""
    return list(_duplicates(root, (), set()))


def _step(node: yaml.Node, part: str | int) -> tuple[yaml.Node, int] | None:
    if isinstance(node, yaml.MappingNode):
        # The last occurrence of a key is the one safe_load keeps.
        for key, value in reversed(node.value):
            if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                return value, node_line(key)
    elif (
        isinstance(node, yaml.SequenceNode)
        and isinstance(part, int)
        and 0 <= part < len(node.value)
    ):
        child: yaml.Node = node.value[part]
        return child, node_line(child)
    return None


def _duplicates(
    node: yaml.Node, location: tuple[str | int, ...], seen: set[int]
) -> Iterator[DuplicateKey]:
    if id(node) in seen:  # aliases can make the node graph cyclic
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first_lines: dict[str, int] = {}
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            if key.value in first_lines:
                yield DuplicateKey((*location, key.value), node_line(key), first_lines[key.value])
            else:
                first_lines[key.value] = node_line(key)
            yield from _duplicates(value, (*location, key.value), seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            yield from _duplicates(child, (*location, index), seen)
