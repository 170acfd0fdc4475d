"""What ``/quiz me`` shows beyond the member's own figures, the settings on a member's page
and the rows a replica follows are each declared by the feature they belong to (its face's
``me_sections``, ``settings_on_page`` and ``follows``); the learning loop and the page read
them in rank order and import none of those features."""

from __future__ import annotations

import pytest

from bot.away.setting_on_page import AwayOnPage
from bot.kernel.own_views import Ranked
from bot.kernel.stores import ChangeKind
from bot.notices.setting_on_page import NoticesOnPage
from bot.pairing.me_section import MockInterviewsSection
from bot.recaps.me_section import ActivitySection
from bot.reminders.setting_on_page import ReminderOnPage
from bot.reviews.me_section import CalibrationSection
from bot.seasons.me_section import TitlesSection
from tests.harness import QuizHarness


def test_me_sections_come_from_the_faces_in_rank_order(quiz: QuizHarness) -> None:
    sections = [type(section) for section in quiz.service.core.me_sections]
    assert sections == [
        ActivitySection,
        CalibrationSection,
        MockInterviewsSection,
        TitlesSection,
    ]


def test_settings_on_page_come_from_the_faces_in_rank_order(quiz: QuizHarness) -> None:
    settings = [type(setting) for setting in quiz.service.core.settings_on_page]
    assert settings == [ReminderOnPage, NoticesOnPage, AwayOnPage]


def test_the_rows_replicas_follow_are_declared_by_their_features(quiz: QuizHarness) -> None:
    class Changes:  # a shared store's change feed, as far as the declarations read it
        async def question_versions(self) -> dict[int, int]:
            return {}

        reminder_versions = pair_schedule_versions = question_versions

    kinds = [
        followed.kind
        for parts in quiz.service.parts
        if parts.follows is not None
        for followed in parts.follows(Changes())  # type: ignore[arg-type]
    ]
    assert sorted(kinds) == sorted(
        [ChangeKind.QUESTION, ChangeKind.REMINDER, ChangeKind.PAIR_SCHEDULE]
    )


def test_two_features_may_not_take_one_place_in_a_view() -> None:
    ranked: Ranked[str] = Ranked()
    ranked.add(20, "second")
    ranked.add(10, "first")
    assert list(ranked) == ["first", "second"]
    with pytest.raises(ValueError, match="place 10"):
        ranked.add(10, "again")
