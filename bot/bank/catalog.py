"""The questions as each workspace sees them: the bundled catalog, plus the workspace's own
pack (approved suggestions), with the workspace's overrides shown instead of bundled texts.

Bundled questions keep the database ids the store registered for them; a workspace question
gets its id when it is approved, in the same ``questions`` table, so rounds, ask counts and
rotation treat both alike. Only the channels of that workspace are offered its questions.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.bank.rotation import eligible_questions
from bot.bank.store import Override, OwnQuestion, StoredQuestion, Workspace
from bot.kernel.refs import ChannelRef
from bot.kernel.topic_choice import TopicChoice
from questions.catalog import Catalog
from questions.pack import Difficulty, Question
from questions.similarity import similarity


def workspace_of(ref: ChannelRef) -> Workspace:
    return Workspace(ref.platform, ref.workspace)


class WorkspaceCatalog:
    """The questions each workspace sees: the bundled ones, its own pack, its overrides."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._bundled: dict[int, tuple[str, str]] = {}  # database id -> (pack, question id)
        self._bundled_topics: dict[int, str] = {}
        self._bundled_difficulties: dict[int, Difficulty | None] = {}
        self._own: dict[Workspace, dict[int, Question]] = {}
        self._overrides: dict[Workspace, dict[int, Question]] = {}

    def register_bundled(self, ids: Mapping[tuple[str, str], int]) -> None:
        """The database ids of the catalog's questions (from ``Store.sync_questions``)."""
        self._bundled = {db_id: key for key, db_id in ids.items()}
        self._bundled_topics = {
            db_id: entry.question.topic
            for db_id, key in self._bundled.items()
            if (entry := self.catalog.get(*key)) is not None
        }
        self._bundled_difficulties = {
            db_id: entry.question.difficulty
            for db_id, key in self._bundled.items()
            if (entry := self.catalog.get(*key)) is not None
        }

    def put_own(self, own: OwnQuestion) -> None:
        self._own.setdefault(own.workspace, {})[own.question_id] = own.question

    def put_override(self, override: Override) -> None:
        self._overrides.setdefault(override.workspace, {})[override.question_id] = override.question

    def put_stored(self, stored: StoredQuestion) -> None:
        """A question's texts as the bank stores them now (another replica changed them),
        instead of those kept of it."""
        for own in self._own.values():
            own.pop(stored.question_id, None)
        for overrides in self._overrides.values():
            overrides.pop(stored.question_id, None)
        if stored.own is not None:
            self.put_own(stored.own)
        for override in stored.overrides:
            self.put_override(override)

    def bundled_topics(self) -> Mapping[int, str]:
        return self._bundled_topics

    def bundled_difficulties(self) -> Mapping[int, Difficulty | None]:
        return self._bundled_difficulties

    def difficulties(self, workspace: Workspace) -> dict[int, Difficulty | None]:
        """The difficulty of every question of :meth:`eligible`, as the workspace shows it."""
        levels = dict(self._bundled_difficulties)
        levels.update({q: o.difficulty for q, o in self._overrides.get(workspace, {}).items()})
        levels.update({q: own.difficulty for q, own in self._own.get(workspace, {}).items()})
        return levels

    def choosable(
        self,
        workspace: Workspace,
        topics: TopicChoice,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
    ) -> list[int]:
        """The questions a channel of the workspace may be asked: of its enabled topics (or
        of ``topic``) and, when it has one, of its difficulty."""
        levels = None if difficulty is None else self.difficulties(workspace)
        questions = self.eligible(workspace)
        return eligible_questions(
            questions,
            topics.enabled(questions.values()),
            topic,
            difficulty=difficulty,
            difficulties=levels,
        )

    def graded_topics(self, workspace: Workspace | None) -> dict[int, str]:
        """The topic each graded question counts under in mastery and reviews: as the
        workspace shows it; without a workspace, bundled topics and every workspace's own
        questions (their ids are unique)."""
        if workspace is not None:
            return self.eligible(workspace)
        topics = dict(self._bundled_topics)
        for own in self._own.values():
            topics.update({q: question.topic for q, question in own.items()})
        return topics

    def is_bundled(self, question_id: int) -> bool:
        return question_id in self._bundled_topics

    def is_own(self, workspace: Workspace, question_id: int) -> bool:
        return question_id in self._own.get(workspace, {})

    def question(self, workspace: Workspace, question_id: int) -> Question | None:
        """What the workspace shows for a question: its override, its own, or the bundled one."""
        override = self._overrides.get(workspace, {}).get(question_id)
        if override is not None:
            return override
        own = self._own.get(workspace, {}).get(question_id)
        if own is not None:
            return own
        key = self._bundled.get(question_id)
        entry = self.catalog.get(*key) if key else None
        return entry.question if entry else None

    def eligible(self, workspace: Workspace) -> dict[int, str]:
        """Every question the workspace's channels may be asked, by database id, with its topic
        (an override may move a bundled question to another topic)."""
        topics = dict(self._bundled_topics)
        topics.update({q: o.topic for q, o in self._overrides.get(workspace, {}).items()})
        topics.update({q: own.topic for q, own in self._own.get(workspace, {}).items()})
        return topics

    def nearest(self, workspace: Workspace, text: str) -> tuple[Question, float] | None:
        """The question of the workspace whose text is most similar to ``text``, and the
        score (``questions.similarity``), if the workspace has any question."""
        scored = [
            (question, similarity(text, question.question))
            for question_id in self.eligible(workspace)
            if (question := self.question(workspace, question_id)) is not None
        ]
        return max(scored, key=lambda pair: pair[1], default=None)

    def topics(self, workspace: Workspace) -> list[str]:
        return sorted(set(self.eligible(workspace).values()))

    def enabled_topics(self, workspace: Workspace, topics: TopicChoice) -> list[str] | None:
        """The workspace's topics a channel of ``topics`` asks (None: every one)."""
        enabled = topics.enabled(self.topics(workspace))
        return None if enabled is None else sorted(enabled)

    def own_topics(self, workspace: Workspace) -> list[str]:
        """The topic of each of the workspace's own questions (approved suggestions)."""
        return [question.topic for question in self._own.get(workspace, {}).values()]

    def own_count(self, workspace: Workspace) -> int:
        return len(self._own.get(workspace, {}))
