"""The platform ports: what each chat platform's adapter implements for the core.

``bot/`` never imports a platform library; it talks to Slack, Discord and the console
only through these protocols."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Card, Image


class Platform(Protocol):
    """A chat platform as the core sees it. Every method may raise ``PlatformError``.

    ``key`` is the outbox key of the action: adapters attach it to the message
    (Discord nonce, Slack metadata) so that :meth:`find_sent` can find a message
    whose sending was not recorded before a crash.
    """

    name: str
    admin_rule: str  # who is a quiz admin, as a refused member is told

    async def post(self, channel: ChannelRef, card: Card, *, key: str) -> MessageRef: ...

    async def open_thread(self, message: MessageRef, title: str, *, key: str) -> ThreadRef: ...

    async def reply(self, thread: ThreadRef, card: Card, *, key: str) -> MessageRef: ...

    async def react(self, message: MessageRef, emoji: str) -> None: ...

    async def tell(self, member: MemberRef, channel: ChannelRef, card: Card) -> None:
        """Show ``card`` to ``member`` only (ephemeral); outside the outbox."""
        ...

    async def find_sent(
        self, channel: ChannelRef, key: str, *, thread: ThreadRef | None = None
    ) -> MessageRef | None:
        """The message sent earlier with ``key``, if any; ``thread`` is where a reply
        would have been posted (None: the channel itself)."""
        ...

    async def is_admin(self, member: MemberRef, channel: ChannelRef) -> bool: ...

    async def link(self, message: MessageRef, thread: ThreadRef | None = None) -> str | None:
        """A URL that opens ``message`` (posted in ``thread``, if given); None where the
        platform has no links (the console)."""
        ...


@runtime_checkable
class FindsSentSince(Protocol):
    """A platform whose history search can start at a time (Slack's ``oldest``) looks
    through the round's whole time span instead of a fixed number of messages."""

    async def find_sent_since(
        self,
        channel: ChannelRef,
        key: str,
        *,
        thread: ThreadRef | None = None,
        since: datetime | None,
    ) -> MessageRef | None:
        """As :meth:`Platform.find_sent`, among the messages since ``since``."""
        ...


@runtime_checkable
class PacedSends(Protocol):
    """A platform that spaces the messages of one channel (Slack: about one a second)
    says how long the next one would wait: the outbox then puts the action off until
    then instead of holding a send slot while the platform sleeps inside the send."""

    def send_delay(self, channel: ChannelRef) -> float:
        """Seconds until a message to ``channel`` would start without waiting (0: now)."""
        ...


@runtime_checkable
class SendSlots(Protocol):
    """A platform that paces all its requests itself (Discord: one budget a second for the
    process) keeps the budget in use only with enough sends in flight to cover each
    request's round trip: it says how many rounds the outbox may send at once."""

    @property
    def send_slots(self) -> int:
        """Rounds to send at once (0: the outbox's own number is enough)."""
        ...


@runtime_checkable
class SeparateImages(Protocol):
    """A platform that sends a card's picture as a message of its own after the text (Slack
    uploads it as a file) rather than in it. A recap's outbox action then sends its chart as
    a step of its own: a kill between text and chart, or an upload that fails for a while,
    is retried until the chart is out, and each goes out once."""

    async def post_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """Upload ``image`` into ``channel`` alone. Raises ``PlatformError`` when it may work
        later (the caller retries); None when the platform refuses it for good (e.g. a
        missing permission: logged, the text stands without it)."""
        ...

    async def find_image(self, channel: ChannelRef, image: Image, *, key: str) -> MessageRef | None:
        """The upload of ``image`` that an earlier attempt under ``key`` made, if any."""
        ...


@runtime_checkable
class ReactionEmoji(Protocol):
    """A platform that can react with some emoji only, and names them its own way,
    provides this to check a reveal emoji when an admin configures it."""

    async def reaction_emoji(self, emoji: str, channel: ChannelRef) -> str:
        """``emoji`` as the core should keep it in ``channel`` (the form reactions arrive
        in); raises ``Refused`` with a clear message when the platform cannot react with it."""
        ...


@runtime_checkable
class GroupMentions(Protocol):
    """A platform with a mention syntax of its own for a group of members (a Discord role,
    a Slack user group): ``/quiz config ping`` reads a group typed in it. Without it, a
    group is named by its bare name or id."""

    group_form: str  # how a member names a group there, after "Give ": "a role (@role)"

    def mentioned_group(self, typed: str) -> str | None:
        """The id of the group ``typed`` mentions in this platform's syntax; None when it
        is no such mention."""
        ...


@runtime_checkable
class DirectMessages(Protocol):
    """A platform where the bot can write to a member privately (Slack IM, Discord DM,
    the console's ``:dm``); private practice and reminders need it."""

    async def open_direct(self, member: MemberRef) -> ChannelRef:
        """The member's direct-message channel with the bot (opened if need be); posts
        to it go through :meth:`Platform.post` like any channel's."""
        ...


@dataclass(frozen=True, slots=True)
class DataFile:
    """A file of a member's own data (an export, an Anki deck): its name, bytes and a line
    saying what it is."""

    filename: str
    content: bytes
    comment: str


@runtime_checkable
class SendsFiles(Protocol):
    """A platform that can hand a file to a member privately: a file in their direct
    messages with the bot (Slack, Discord), a file written on disk (the console)."""

    async def send_file(self, member: MemberRef, file: DataFile) -> str:
        """Send ``file`` to ``member`` alone; where it went, as the member is told ("in
        your direct messages with me", a path). Raises ``PlatformError`` on failure."""
        ...


@runtime_checkable
class SharedConversations(Protocol):
    """A platform where the bot can open one conversation shared by a few members and
    itself (Slack: a group DM; Discord: a private thread in the quiz channel; the console:
    a shared DM view); mock-interview pairs meet there."""

    async def open_shared(
        self,
        channel: ChannelRef,
        members: Sequence[MemberRef],
        title: str,
        *,
        key: str,
        again: bool = False,
    ) -> ChannelRef:
        """The conversation of exactly ``members`` and the bot, opened from the quiz
        ``channel`` (``title``: its name where it has one); posts to it go through
        :meth:`Platform.post`. Adds nobody else and pings nobody. ``again``: it may have
        been opened before (a retry), and is then found rather than opened twice where the
        platform would open another."""
        ...


@runtime_checkable
class CommandPaths(Protocol):
    """A platform whose subcommands do not all sit right under ``/quiz`` (Discord: one
    command holds only 25, so the admins' are under ``/quiz-admin now`` and related ones in
    groups, ``/quiz round grade``), named so in the help it shows."""

    # a subcommand's name -> how it is run there ("/quiz round grade"); one not named is
    # run as "/quiz NAME"
    command_paths: Mapping[str, str]
