"""A small team's history for the pages: four members answer and grade two rounds, one
teammate reviews an answer far from its author's own grade."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from bot.kernel.config import QuizConfig
from bot.kernel.render import Response
from tests.harness import QuizHarness

BASE_URL = "http://quiz.test:8080"
SECRET = "a-test-secret-of-some-length"
TEAM = ("ann", "bob", "carol", "dan")


def dashboard_config(**changes: object) -> QuizConfig:
    values: dict[str, object] = {
        "default_schedule": "weekdays 09:00",
        "dashboard_url": BASE_URL,
        "dashboard_secret": SECRET,
    }
    values.update(changes)
    return QuizConfig(**values)  # type: ignore[arg-type]


async def seed_team(quiz: QuizHarness) -> None:
    grades = (("nailed", "good", "missed", "good"), ("good", "nailed", "missed", "partly"))
    for round_grades in grades:
        await quiz.command("now")
        for name in TEAM:
            await quiz.answer(name, f"{name}'s answer about the ring and NVLink")
        await quiz.command("reveal")
        for name, grade in zip(TEAM, round_grades, strict=True):
            await quiz.command(f"grade {grade}", by=name)
        quiz.clock.advance(days=1)
    await quiz.command("rate #1 1", by="bob")  # ann graded herself good; bob says missed


def link_in(text: str) -> str:
    """The first link in a text (the body of /quiz dashboard's answer, on any platform)."""
    found = re.search(r"https?://[^\s<>|`*'\"\\]+", text)
    assert found is not None, text
    return found.group(0).replace("&amp;", "&")


def link_of(response: Response) -> str:
    return link_in(response.card.plain_text())


def page_and_query(link: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(link)
    return parts.path.rsplit("/", 1)[1], dict(parse_qsl(parts.query))
