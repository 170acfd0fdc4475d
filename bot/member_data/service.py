"""A member's own data as the core handles it: the export, the Anki deck and the erasure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from bot.kernel.cards import plural
from bot.kernel.grades import Grade
from bot.kernel.platform import DataFile
from bot.kernel.refs import ChannelRef, MemberRef
from bot.learning.store import LearningStore
from bot.member_data.anki import AnkiCard, anki_package
from bot.member_data.exports import export_zip
from bot.member_data.store import Erased, MemberDataStore
from questions.pack import Question

QuestionFor = Callable[[ChannelRef, int], Question | None]
ReminderGone = Callable[[int], None]  # drops the member's reminder job in this process


class MemberDataService:
    """Builds a member's files and erases their data."""

    def __init__(
        self,
        data: MemberDataStore,
        learning: LearningStore,
        question_for: QuestionFor,
        reminder_gone: ReminderGone,
        after_erasure: Callable[[MemberRef], object] | None = None,
    ) -> None:
        self.store = data
        self._learning = learning
        self._question_for = question_for
        self._reminder_gone = reminder_gone
        # what the erasure changes elsewhere (the team's fitted memory parameters)
        self._after_erasure = after_erasure

    async def export(self, member: MemberRef, at: datetime) -> DataFile | None:
        """Every row of the member's data, as JSON and a CSV per table, zipped; None
        when nothing of them is stored."""
        member_id = await self.store.find_member(member)
        if member_id is None:
            return None
        tables = await self.store.member_tables(member_id)
        about = {
            "member": member.member_id,
            "platform": member.platform,
            "workspace": member.workspace,
            "exported_at": at.isoformat(),
        }
        content = export_zip("quizbot-data", about, tables, at)
        rows = sum(len(rows) for rows in tables.values())
        return DataFile(
            f"quizbot-data-{at:%Y-%m-%d}.zip",
            content,
            f"Your quizbot data: {plural(rows, 'row')} in {len(tables)} tables (JSON, and CSV"
            " per table).",
        )

    async def anki_cards(
        self, member: MemberRef, where: ChannelRef, at: datetime
    ) -> list[AnkiCard]:
        """The questions the member last graded missed or partly, and those due now."""
        member_id = await self.store.find_member(member)
        if member_id is None:
            return []
        latest: dict[int, Grade] = {}
        for question_id, grade, _, replaced in await self._learning.grade_log(member_id):
            if not replaced:
                latest[question_id] = grade
        chosen = {q for q, grade in latest.items() if grade <= Grade.PARTLY}
        cards = await self._learning.member_cards(member_id)
        chosen |= {q for q, card in cards.items() if card.due <= at}
        found = []
        for question_id in sorted(chosen):
            question = self._question_for(where, question_id)
            if question is None:
                continue
            found.append(
                AnkiCard(
                    guid=f"quizbot-{member.workspace}-{question_id}",
                    question=question.question,
                    outline=question.outline,
                    key_points=tuple(question.key_points),
                    topic=question.topic,
                )
            )
        return found

    async def anki(self, member: MemberRef, where: ChannelRef, at: datetime) -> DataFile | None:
        cards = await self.anki_cards(member, where, at)
        if not cards:
            return None
        owner = f"{member.platform}:{member.workspace}:{member.member_id}"
        return DataFile(
            f"quizbot-{at:%Y-%m-%d}.apkg",
            await anki_package(cards, owner),
            f"Your Anki deck: {plural(len(cards), 'question')} you missed, got partly or that"
            " are due.",
        )

    async def erase(
        self, member: MemberRef, at: datetime, directs: Sequence[ChannelRef] = ()
    ) -> Erased | None:
        """Delete the member's data in one transaction; None when nothing was stored.
        ``directs``: the member's DM channels with the bot, where the platform has them."""
        member_id = await self.store.find_member(member)
        if member_id is None:
            return None
        erased = await self.store.erase_member(member_id, at, directs)
        self._reminder_gone(member_id)
        if self._after_erasure is not None:
            self._after_erasure(member)
        return erased
