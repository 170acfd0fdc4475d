"""A member's or a channel's data as files: JSON of every table, and one CSV per table."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.member_data.store import Rows, Tables


def table_csv(rows: Rows) -> str:
    """One table as CSV with a header row (empty for a table with no rows)."""
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def export_json(about: Mapping[str, Any], tables: Tables) -> str:
    return json.dumps({**about, "tables": tables}, indent=2, ensure_ascii=False, default=str)


def export_zip(name: str, about: Mapping[str, Any], tables: Tables, at: datetime) -> bytes:
    """``<name>.json`` with everything, and ``<table>.csv`` for each table, in one zip."""
    buffer = io.BytesIO()
    stamp = at.timetuple()[:6]
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(f"{name}.json", stamp), export_json(about, tables))
        for table, rows in tables.items():
            archive.writestr(zipfile.ZipInfo(f"{table}.csv", stamp), table_csv(rows))
    return buffer.getvalue()
