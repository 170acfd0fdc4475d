"""The key the coach's replies are cached under: the same answer to the same question with the
same key points, model and prompt gets the same ticks.

The answer is normalised as quotes are checked (case and whitespace ignored), so two answers
that share a key also verify the same quotes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from bot.coach.prompt import PROMPT_VERSION
from bot.coach.wording import normalised


def coach_cache_key(question: str, key_points: Sequence[str], answer: str, *, model: str) -> str:
    """A sha256 hex digest over the prompt's version, the model, the question, its key points
    and the normalised answer."""
    parts = {
        "prompt": PROMPT_VERSION,
        "model": model,
        "question": normalised(question),
        "key_points": [normalised(point) for point in key_points],
        "answer": normalised(answer),
    }
    encoded = json.dumps(parts, ensure_ascii=False, sort_keys=True).encode()
    return hashlib.sha256(encoded).hexdigest()
