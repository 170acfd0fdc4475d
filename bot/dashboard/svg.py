"""Charts as inline SVG, drawn on the server: the page loads nothing from anywhere."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

_COLOURS = ("#3b6ea8", "#e08a2e", "#4f9d55", "#9a5fb0", "#c44e52")
_BAR_AREA = 160


def recall_colour(value: float) -> str:
    """Red (0) through amber to green (1): the heatmap's cell colour."""
    value = min(1.0, max(0.0, value))
    if value < 0.5:
        red, green = 214, int(80 + 2 * value * 130)
    else:
        red, green = int(214 - 2 * (value - 0.5) * 150), 190
    return f"#{red:02x}{green:02x}60"


def bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], title: str) -> str:
    """Grouped bars: one group per label, one bar per series, with a legend."""
    group = max(1, len(series)) * 9 + 8
    width = 40 + group * len(labels)
    height = _BAR_AREA + 60
    top = max([1, *(v for _, values in series for v in values)])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart bars"'
        f' viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="30" y1="{_BAR_AREA + 10}" x2="{width}" y2="{_BAR_AREA + 10}" stroke="#999"/>',
        f'<text x="0" y="18" font-size="10">{top}</text>',
    ]
    for index, label in enumerate(labels):
        x0 = 34 + index * group
        for s, (name, values) in enumerate(series):
            value = values[index]
            h = round(_BAR_AREA * value / top)
            parts.append(
                f'<rect x="{x0 + s * 9}" y="{_BAR_AREA + 10 - h}" width="8" height="{h}"'
                f' fill="{_COLOURS[s % len(_COLOURS)]}"><title>{escape(name)} {escape(label)}:'
                f" {value}</title></rect>"
            )
        if index % 2 == 0:
            parts.append(
                f'<text x="{x0}" y="{_BAR_AREA + 24}" font-size="9">{escape(label)}</text>'
            )
    for s, (name, _) in enumerate(series):
        x = 34 + s * 90
        parts.append(
            f'<rect x="{x}" y="{_BAR_AREA + 38}" width="10" height="10"'
            f' fill="{_COLOURS[s % len(_COLOURS)]}"/>'
            f'<text x="{x + 14}" y="{_BAR_AREA + 47}" font-size="10">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def heatmap(
    columns: Sequence[str], rows: Sequence[tuple[str, Sequence[float | None]]], title: str
) -> str:
    """Cells coloured by value (0..1) with the percentage written in each."""
    # about 6.5 pixels a character at 11 px: the longest row label fits, whatever it says
    label_width = 12 + round(6.5 * max((len(label) for label, _ in rows), default=10))
    longest_column = max((len(column) for column in columns), default=4)
    cell, head = 64, 24 + round(4 * longest_column)
    width = label_width + cell * len(columns)
    height = head + 24 * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart heatmap"'
        f' viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        f"<title>{escape(title)}</title>",
    ]
    for c, column in enumerate(columns):
        x = label_width + c * cell + 8
        parts.append(
            f'<text x="{x}" y="{head - 6}" font-size="10" transform="rotate(-30 {x} {head - 6})"'
            f">{escape(column)}</text>"
        )
    for r, (label, values) in enumerate(rows):
        y = head + r * 24
        parts.append(f'<text x="0" y="{y + 16}" font-size="11">{escape(label)}</text>')
        for c, value in enumerate(values):
            x = label_width + c * cell
            if value is None:
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{cell - 2}" height="22" fill="#eee"/>'
                    f'<text x="{x + 22}" y="{y + 15}" font-size="10">–</text>'
                )
                continue
            parts.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell - 2}" height="22"'
                f' fill="{recall_colour(value)}"/>'
                f'<text x="{x + 18}" y="{y + 15}" font-size="10">{round(value * 100)}%</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
