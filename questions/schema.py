"""The JSON Schema of a pack file, generated from the model so editors can validate packs.

Run ``python -m questions.schema`` to rewrite ``questions/pack.schema.json`` after changing
the model; ``--check`` only reports whether the committed file is up to date.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from questions.pack import Pack

SCHEMA_PATH = Path(__file__).resolve().parent / "pack.schema.json"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def pack_json_schema() -> dict[str, Any]:
    schema = Pack.model_json_schema()
    return {"$schema": JSON_SCHEMA_DIALECT, **schema, "title": "quizbot question pack"}


def render_schema() -> str:
    return json.dumps(pack_json_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m questions.schema", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is outdated")
    args = parser.parse_args(argv)
    expected = render_schema()
    current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else None
    if args.check:
        print(f"{SCHEMA_PATH}: {'up to date' if current == expected else 'OUTDATED'}")
        return 0 if current == expected else 1
    if current != expected:
        SCHEMA_PATH.write_text(expected, encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    else:
        print(f"{SCHEMA_PATH} is already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
