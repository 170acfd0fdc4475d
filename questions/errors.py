"""The root of every error quizbot raises on purpose.

It lives in the lowest package so that every other one can derive from it without
an import pointing upwards; :mod:`bot.kernel.errors` hands it on to the rest of the code.
"""

from __future__ import annotations


class QuizError(Exception):
    """Base class of the errors quizbot raises on purpose; each message says what to do."""
