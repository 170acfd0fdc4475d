"""Reads console input and turns it into quiz events.

Input: ``/quiz ...`` is a slash command; ``:as NAME [admin]`` switches member;
``:react EMOJI [#N]`` reacts to the question (or the N-th answer); ``:wait DURATION``
lets time pass in a script (nothing scheduled fires by itself there); ``:quit``;
``:help``; ``:dm`` switches to your direct messages with the bot and ``:channel`` back;
any other line is a reply in the thread of the round on view (in the DMs: a message to
the bot). While a form is open (``/quiz suggest``), lines fill it in (see
:mod:`adapters.console.form_entry`).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from adapters.console.form_entry import CANCEL, SUBMIT, FormEntry
from adapters.console.render import Transcript
from adapters.console.view import CONSOLE_CHANNEL, OWNER, ConsoleView, direct_channel
from adapters.printable import printable
from bot.kernel.events import Command, DirectMessage, FormSubmit, Reaction, Reply, split_command
from bot.kernel.refs import ChannelRef, MemberRef, MessageRef, ThreadRef
from bot.kernel.render import Response
from bot.kernel.runtime import EventHandler

log = logging.getLogger(__name__)

CONTROLS = (
    "/quiz ...            a slash command (try /quiz help)",
    ":as NAME [admin]     act as member NAME (an admin only with 'admin')",
    ":react EMOJI [#N]    react to the question, or to the N-th answer of the round",
    ":dm                  your direct messages with the bot (private practice)",
    ":channel             back to #practice",
    ":wait DURATION       in a script: let time pass (2h, 90m, 1d12h, 2w); what falls due runs",
    ":quit                leave",
    "anything else        your answer, in the thread of the last question",
)
FORM_CONTROLS = (
    "field: text          inside a form: set a field; a line without `field:` continues it",
    f"{SUBMIT:<21}inside a form: submit it",
    f"{CANCEL:<21}inside a form: drop it",
)
ANSWER_NUMBER = re.compile(r"#?[0-9]{1,6}")
DURATION = re.compile(r"(?:(\d{1,3})w)?(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,6})m)?")
LONGEST_WAIT = timedelta(days=366)
# Lets time pass on the bot's clock, doing what falls due; called with each moment
# something falls due (before it is done); returns the time at the end.
PassTime = Callable[[timedelta, Callable[[datetime], None]], Awaitable[datetime]]


def parse_duration(text: str) -> timedelta | None:
    """``2h``, ``90m``, ``1d12h``, ``2w``: weeks, days, hours and minutes, in that order;
    None when ``text`` is not one."""
    match = DURATION.fullmatch(text.strip().lower())
    if match is None or not any(match.groups()):
        return None
    weeks, days, hours, minutes = (int(g) if g else 0 for g in match.groups())
    return timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)


def clock_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%a %d %b %Y %H:%M UTC")


def works_inside_a_form(text: str) -> bool:
    """The controls that still work while a form is open; any other line is the form's."""
    return text in (":quit", ":help") or text.split(maxsplit=1)[0:1] in ([":as"], [":wait"])


async def nothing_to_wait_for() -> None:
    """The default ``settle``: a line's work is done when its event was handled."""
    return None


@dataclass
class ConsoleSession:
    """Reads console lines and turns them into quiz events for the core's handler."""

    handle: EventHandler
    transcript: Transcript
    view: ConsoleView
    echo: bool  # print input lines too (scripts); a terminal already shows them
    # what a line set off (the outbox) is done before the next line is read
    settle: Callable[[], Awaitable[None]] = nothing_to_wait_for
    # what ``:wait`` calls; None: time passes by itself (a terminal, with the schedulers)
    pass_time: PassTime | None = None
    member: str = OWNER
    _session: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    _counter: int = 0
    _form: FormEntry | None = None
    _form_member: str = ""  # who opened the form: it is theirs, whoever speaks meanwhile
    _direct: bool = False  # in the member's direct messages with the bot (``:dm``)

    def _next_id(self, kind: str) -> str:
        self._counter += 1
        return f"console-{self._session}-{kind}{self._counter}"

    def _member_ref(self, name: str | None = None) -> MemberRef:
        name = name or self.member
        return MemberRef("console", CONSOLE_CHANNEL.workspace, name, name)

    def _channel(self) -> ChannelRef:
        return direct_channel(self.member) if self._direct else CONSOLE_CHANNEL

    def _direct_name(self) -> str | None:
        return self.member if self._direct else None

    def prompt(self) -> str:
        where = " (DM)" if self._direct else ""
        form = f" [form: {self._form.form.title}]" if self._form is not None else ""
        return f"{printable(self.member)}{where}{form}> "

    async def run(self, lines: AsyncIterator[str]) -> None:
        async for raw in lines:
            try:
                keep_going = await self.handle_line(raw.rstrip("\r\n"))
            except Exception:  # one bad line must not end the session
                log.exception("console input %r failed", raw)
                self.transcript.note("that line failed; it was logged")
                keep_going = True
            if not keep_going:
                break
            await self.settle()  # what the line set off is shown before the next prompt
        await self.settle()

    async def handle_line(self, line: str) -> bool:
        """Act on one input line; False means quit."""
        text = line.strip()
        if self._form is not None and not works_inside_a_form(text):
            await self._fill_form(line)
            return True
        if not text:
            return True
        if text == ":quit":
            return False
        if text == ":help":
            controls: tuple[str, ...] = CONTROLS
            if self._form is not None:
                self.transcript.note(f"the form {self._form.form.title!r} is open:")
                controls = (
                    *FORM_CONTROLS,
                    *(c for c in CONTROLS if works_inside_a_form(c.split()[0])),
                )
            for control in controls:
                self.transcript.note(control)
        elif text in (":dm", ":channel"):
            self._direct = text == ":dm"
            where = "your direct messages with quizbot" if self._direct else CONSOLE_CHANNEL.name
            self.transcript.note(f"now in {where}")
        elif text.startswith(":as"):
            self._switch_member(text)
        elif text.startswith(":react"):
            await self._react(text)
        elif text.split(maxsplit=1)[0] == ":wait":
            await self._wait(text)
        elif text.split(maxsplit=1)[0] == "/quiz":
            await self._command(text)
        elif text.lower().startswith("/quiz"):  # `/quizzes now`: a chat platform runs no /quiz
            word, *rest = text.split(maxsplit=1)
            example = f"/quiz {rest[0]}" if rest else "/quiz help"
            self.transcript.note(f"unknown control {word!r}; the command is /quiz, e.g. {example}")
        elif text.startswith(("/", ":")):
            self.transcript.note(f"unknown control {text.split()[0]!r}; :help lists them")
        elif self._direct:
            await self._direct_message(text)
        else:
            await self._reply(text)
        return True

    async def _wait(self, text: str) -> None:
        words = text.split()
        duration = parse_duration(words[1]) if len(words) == 2 else None
        if duration is None or not timedelta(0) < duration <= LONGEST_WAIT:
            self.transcript.note(
                "use :wait DURATION, e.g. :wait 2h, :wait 90m, :wait 1d12h (up to 366d)"
            )
            return
        if self.pass_time is None:
            self.transcript.note(
                ":wait is for scripts (piped input); here time passes by itself, and what is"
                " scheduled comes at its time"
            )
            return
        self.transcript.note(f"letting {words[1]} pass")
        end = await self.pass_time(duration, lambda at: self.transcript.note(clock_time(at)))
        self.transcript.note(f"it is now {clock_time(end)}")

    def _switch_member(self, text: str) -> None:
        words = text.split()
        if len(words) not in (2, 3) or (len(words) == 3 and words[2] != "admin"):
            self.transcript.note("use :as NAME or :as NAME admin")
            return
        self.member = words[1]
        if len(words) == 3:
            self.view.admins.add(self.member)
        elif self.member != OWNER:
            self.view.admins.discard(self.member)
        role = "an admin" if self.member in self.view.admins else "a member"
        self.transcript.note(f"you are now {self.member}, {role}")
        if self._form is not None:
            self.transcript.note(f"the form stays open, {self._form_member}'s to submit")

    async def _command(self, text: str) -> None:
        if self.echo:
            self.transcript.say(None, self.member, [text], self._direct_name())
        # as Slack does: words split at whitespace, free text at the end kept as typed
        name, args, rest = split_command(split_command(text)[2])
        event = Command(
            self._next_id("cmd"),
            self._channel(),
            self._member_ref(),
            name or "help",
            args,
            direct=self._direct,
            text=rest,
        )
        await self._show(await self.handle(event))

    async def _show(self, response: Response | None, to: str | None = None) -> None:
        if response is None:
            return
        member = to or self.member
        if response.form is not None:
            self._form = FormEntry(response.form)
            self._form_member = member
            lines = self._form.instructions()
            self.transcript.say(None, f"quizbot → {member} (private)", lines)
            return
        if response.public:
            self.transcript.show(None, "quizbot", response.card)
        else:
            self.transcript.tell(member, response.card, self._direct_name())

    async def _fill_form(self, line: str) -> None:
        entry = self._form
        assert entry is not None
        if self.echo:
            self.transcript.say(None, self.member, [line])
        if line.strip() == CANCEL:
            self._form = None
            self.transcript.note("form dropped")
            return
        if line.strip() != SUBMIT:
            note = entry.take(line)
            if note:
                self.transcript.note(note)
            return
        submit = FormSubmit(
            self._next_id("form"),
            CONSOLE_CHANNEL,
            self._member_ref(self._form_member),
            entry.form.kind,
            entry.form.target,
            dict(entry.values),
        )
        response = await self.handle(submit)
        if response is not None and response.problems:
            self.transcript.tell(self._form_member, response.card)
            self.transcript.note(f"the form is still open: fix the field, then `{SUBMIT}`")
            return
        self._form = None
        await self._show(response, to=self._form_member)

    async def _direct_message(self, text: str) -> None:
        channel = self._channel()
        if self.echo:
            self.transcript.say(None, self.member, [text], self.member)
        await self._show(
            await self.handle(
                DirectMessage(
                    self._next_id("ev"),
                    channel,
                    MessageRef(channel, self._next_id("msg")),
                    self._member_ref(),
                    text,
                )
            )
        )

    async def _reply(self, text: str) -> None:
        shown = self.view.shown
        if shown is None:
            if self.echo:
                self.transcript.say(None, self.member, [text])
            self.transcript.note("no round is open: an admin can post one with /quiz now")
            return
        if self.echo:
            self.transcript.say(shown.thread, self.member, [text])
        message = self._next_id("msg")
        await self.handle(
            Reply(
                self._next_id("ev"),
                CONSOLE_CHANNEL,
                ThreadRef(CONSOLE_CHANNEL, shown.thread),
                MessageRef(CONSOLE_CHANNEL, message),
                self._member_ref(),
                text,
            )
        )
        shown.answers.append((message, self.member))

    async def _react(self, text: str) -> None:
        words = text.split()
        if len(words) not in (2, 3) or (len(words) == 3 and not ANSWER_NUMBER.fullmatch(words[2])):
            self.transcript.note("use :react EMOJI or :react EMOJI #N")
            return
        emoji = words[1]
        shown = self.view.shown
        if shown is None:
            self.transcript.note("no round is open to react to")
            return
        target, described = shown.question, "the question"
        if len(words) == 3:
            number = int(words[2].lstrip("#"))
            if not 1 <= number <= len(shown.answers):
                name = self.transcript.thread_names.get(shown.thread, "the round")
                self.transcript.note(f"{name} has {len(shown.answers)} answer(s)")
                return
            target, by = shown.answers[number - 1]
            described = f"answer #{number} by {by}"
        self.transcript.note(f"{self.member} reacted {emoji} to {described}")
        await self.handle(
            Reaction(
                self._next_id("ev"),
                CONSOLE_CHANNEL,
                MessageRef(CONSOLE_CHANNEL, target),
                self._member_ref(),
                emoji,
            )
        )
