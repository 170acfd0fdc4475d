"""The dashboard's sections of a member's own page, all from what the member's other views
already compute: their recall per topic (``/quiz me``, the Home tab), their points and
streak in the channel (the Home tab), the sections other features add to ``/quiz me``
(activity, calibration, past partners), and their switches (the Home tab's buttons)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from bot.bank.store import Workspace
from bot.dashboard.recall import per_topic
from bot.kernel.dashboard_views import DashboardSection, DashboardView, Facts, Heatmap, Table
from bot.kernel.own_views import MeSectionSource, MeView, SettingOnPage, channel_name
from bot.learning.next_review import next_review_text
from bot.learning.service import LearningService
from bot.member_data.home import HomePages, home_command, workspace_of_member


class MemberRecall:
    def __init__(
        self,
        learning: LearningService,
        topics: Callable[[Workspace | None], Mapping[int, str]],
        timezone: str,
    ) -> None:
        self._learning = learning
        self._topics = topics
        self._timezone = timezone

    async def __call__(self, view: DashboardView) -> DashboardSection | None:
        if view.member_id is None:
            return None
        workspace = workspace_of_member(view.member)
        mastery = await self._learning.mastery(view.member_id, view.now, workspace)
        goal = await self._learning.store.goal(view.member_id)
        cards = await self._learning.store.member_cards(view.member_id)
        model = await self._learning.model_for(workspace)
        now = per_topic(model, cards.values(), self._topics(workspace), view.now)
        columns = tuple(sorted(set(now) | set(mastery.per_topic)))
        target = f"on {mastery.target:%a %d %b %Y}" + (
            " (your goal)" if goal else " (30 days ahead)"
        )
        return DashboardSection(
            "Your recall per topic",
            "your memory model (FSRS cards from your own grades and reviews), forecast for"
            " today and for your goal date (`/quiz goal YYYY-MM-DD`; without one, 30 days"
            " ahead), averaged over each topic's graded questions",
            (
                Facts(
                    (
                        ("Goal", f"{goal:%a %d %b %Y}" if goal else "none"),
                        ("Reviews due", str(mastery.due)),
                        ("Next review", next_review_text(mastery, self._timezone)),
                    )
                ),
                Heatmap(
                    columns,
                    (
                        ("now", tuple(now.get(t) for t in columns)),
                        (target, tuple(mastery.per_topic.get(t) for t in columns)),
                    ),
                ),
            ),
        )


class Standing:
    def __init__(self, home: HomePages) -> None:
        self._home = home

    async def __call__(self, view: DashboardView) -> DashboardSection | None:
        if view.member_id is None:
            return None
        field = await self._home.channel_field(view.channel, view.member, view.member_id)
        return DashboardSection(
            f"Points and streak in {channel_name(view.channel)}",
            "your answers' points (first answers, votes, quality) and the channel's scheduled"
            " rounds you answered in a row, days away not breaking it (as on the Home tab)",
            (Facts(((field.name, field.value),)),),
        )


class FromQuizMe:
    """The sections features add to ``/quiz me`` in this channel, as the page's facts."""

    def __init__(self, sections: Iterable[MeSectionSource], learning: LearningService) -> None:
        self._sections = sections
        self._learning = learning

    async def __call__(self, view: DashboardView) -> DashboardSection | None:
        if view.member_id is None:
            return None
        target = await self._learning.target(view.member_id, view.now)
        me = MeView(
            view.channel, view.member_id, view.member.label(), view.now, target, with_image=False
        )
        items: list[tuple[str, str]] = []
        for source in self._sections:
            section = await source(me)
            if section is not None:
                items.extend((f.name, f.value) for f in section.fields)
        return DashboardSection(
            "Activity, calibration and mock interviews",
            "the same figures `/quiz me` shows in this channel: your weekly activity, how your"
            " own grades compare with your reviewers', and your past mock-interview partners",
            (Facts(tuple(items)) if items else Table((), (), "Nothing yet."),),
        )


class Switches:
    """The Home tab's switches, each with the ``/quiz`` command that flips it."""

    def __init__(self, settings: Iterable[SettingOnPage]) -> None:
        self._settings = settings

    async def __call__(self, view: DashboardView) -> DashboardSection | None:
        if view.member_id is None:
            return None
        rows = []
        for setting in self._settings:
            for field, button in await setting.show(view.member_id):
                change = "–"
                if button is not None:
                    command = home_command(button.value)
                    where = " (in the channel)" if command.channel_id else " (in a DM with the bot)"
                    change = f"/quiz {command.name} {command.text}".strip() + where
                rows.append((field.name, field.value, change))
        return DashboardSection(
            "Your switches",
            "your reminder, notices and time away as stored (the Home tab's buttons); this"
            " page is read-only, so each shows the command that changes it",
            (Table(("setting", "now", "to change it"), tuple(rows), "No switches here."),),
        )
