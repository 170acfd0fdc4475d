"""A page as HTML: the sections' blocks as tables and inline SVG, one inline style sheet,
no script, nothing loaded from anywhere (the Content-Security-Policy forbids it anyway).

Every text comes through :func:`html.escape`: names and topics are members' input."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from bot.dashboard import svg
from bot.kernel.dashboard_views import (
    Bars,
    Block,
    DashboardSection,
    Facts,
    Heatmap,
    Note,
    Table,
)

# the page's one style sheet, inline: the policy allows exactly this (no other style)
STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em;color:#222;
max-width:70em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}
.from{color:#666;font-size:.85em;margin:.2em 0 .8em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:.25em .6em;
text-align:left;font-size:.9em}th{background:#f4f4f4}
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}
dd{margin:0}.chart{display:block;margin:.5em 0;max-width:100%;height:auto}
code{background:#f4f4f4;padding:0 .2em;border-radius:3px}
footer{margin-top:3em;color:#777;font-size:.8em}
""".strip()


_CODE = re.compile(r"`([^`]+)`")


def _text(text: str) -> str:
    """Escaped text, with the cards' `/quiz ...` spans as code."""
    return _CODE.sub(r"<code>\1</code>", escape(text))


def page_html(title: str, intro: str, sections: Sequence[DashboardSection], footer: str) -> str:
    body = "".join(_section(section) for section in sections)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1><p>{_text(intro)}</p>{body}"
        f"<footer>{escape(footer)}</footer></body></html>"
    )


def error_html(title: str, text: str) -> str:
    return page_html(title, text, (), "quizbot")


def _section(section: DashboardSection) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in section.title.lower()).strip("-")
    blocks = "".join(_block(block, section.title) for block in section.blocks)
    return (
        f'<section id="{escape(slug)}"><h2>{escape(section.title)}</h2>'
        f'<p class="from">Computed from: {_text(section.computed_from)}</p>{blocks}</section>'
    )


def _block(block: Block, title: str) -> str:
    match block:
        case Facts(items):
            rows = "".join(f"<dt>{escape(k)}</dt><dd>{_text(v)}</dd>" for k, v in items)
            return f"<dl>{rows}</dl>"
        case Table(headers, rows, empty):
            if not rows:
                return f"<p>{_text(empty)}</p>"
            head = "".join(f"<th>{escape(h)}</th>" for h in headers)
            body = "".join(
                "<tr>" + "".join(f"<td>{_text(cell)}</td>" for cell in row) + "</tr>"
                for row in rows
            )
            return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        case Heatmap(columns, rows, empty):
            if not rows or not columns:
                return f"<p>{_text(empty)}</p>"
            return svg.heatmap(columns, rows, title)
        case Bars(labels, series, empty):
            if not labels or not any(any(values) for _, values in series):
                return f"<p>{_text(empty)}</p>"
            return svg.bars(labels, series, title)
        case Note(text):
            return f"<p>{_text(text)}</p>"
    raise AssertionError(f"unknown block {block!r}")
