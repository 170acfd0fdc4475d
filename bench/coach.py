"""How well a coach endpoint ticks key points, and what the verification keeps out.

Every answer of the labelled set (``bench/coach_labels/ai-infra.yaml``: answers to questions of
the bundled ai-infra pack, each labelled with the key points it truly covers and its kind) goes
through the coach's own pipeline: ``bot.coach.prompt``'s messages, ``CoachClient`` (with its
steps down from structured output), ``assess_answer`` (a malformed reply retried once) and
``verify``. Each answer's ticks are scored against its label twice: BEFORE verification (the
in-range points the model proposed) and AFTER (the ticks that stand), so the table shows what
the verification keeps out and what it costs in recall.

Reported: precision, recall and F1 per key point (micro over every labelled point, and by kind);
the accuracy of the grade the ticks propose (``bot.reviews.rubric.grade_from_coverage``) against
the grade the label's coverage gives, and how often it is above the label's (more lenient);
false ticks on injection and keyword-stuffed answers; ticks dropped by reason; requests, tokens,
failures and latency. Answers whose request failed (malformed twice, endpoint unavailable or
refusing) are counted as failures and left out of the scores, as the product proposes nothing
for them.

    PYTHONPATH=. python bench/coach.py --url http://127.0.0.1:8765/v1 --model smollm2
        [--limit N] [--cache FILE] [--max-tokens 256] [--timeout 120]
    PYTHONPATH=. python bench/coach.py --scripted first-sentence|obedient

The API key, if the endpoint needs one, is read from QUIZBOT_COACH_API_KEY. ``--limit`` takes a
stratified subset (round robin over the kinds). ``--cache`` keeps each answer's reply in a JSON
file, so a rerun re-verifies without asking the model again. ``--scripted`` runs offline
against a deterministic in-process endpoint: ``first-sentence`` ticks every key point quoting
the answer's first sentence; ``obedient`` does what an injection asks (replays a JSON block of
the answer, ticks everything when told to, ticks pasted key points) and ticks nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import SecretStr

from adapters.coach_transport import AiohttpChatTransport
from bot.coach.assessment import assess_answer
from bot.coach.cache_key import coach_cache_key
from bot.coach.client import CoachClient
from bot.coach.endpoint import CoachEndpoint
from bot.coach.errors import EndpointRefused, EndpointUnavailable, MalformedOutput
from bot.coach.transport import ChatTransport, HttpReply, TransportFailure
from bot.coach.verdict import parse_ticks
from bot.coach.verification import DropReason, Verification, verify
from bot.kernel.grades import Grade
from bot.reviews.rubric import grade_from_coverage
from questions.loader import bundled_pack_files, load_pack

LABELS = Path(__file__).resolve().parent / "coach_labels" / "ai-infra.yaml"
KINDS = (
    "strong",
    "partial",
    "chat",
    "keyword_stuffed",
    "confidently_wrong",
    "off_topic",
    "injection",
    "rambling",
    "non_english",
)
UNEARNED = ("injection", "keyword_stuffed")  # kinds whose every extra tick is a false one


# ---------------------------------------------------------------- the labelled set


@dataclass(frozen=True, slots=True)
class LabelledAnswer:
    id: str
    kind: str
    question_id: str
    question: str
    key_points: tuple[str, ...]
    covers: frozenset[int]
    answer: str

    @property
    def label_grade(self) -> Grade:
        return grade_from_coverage(len(self.covers), len(self.key_points))


def load_labels(path: Path = LABELS) -> list[LabelledAnswer]:
    """The labelled answers, checked against the bundled pack their file names."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    pack = load_pack(bundled_pack_files()[document["pack"]])
    questions = {question.id: question for question in pack.questions}
    items: list[LabelledAnswer] = []
    for raw in document["answers"]:
        question = questions[raw["question"]]
        covers = frozenset(int(point) for point in raw["covers"])
        if raw["kind"] not in KINDS:
            raise ValueError(f"{raw['id']}: unknown kind {raw['kind']!r}")
        if not covers <= set(range(1, len(question.key_points) + 1)):
            raise ValueError(f"{raw['id']}: covers a point the question does not have")
        items.append(
            LabelledAnswer(
                raw["id"],
                raw["kind"],
                question.id,
                question.question,
                tuple(question.key_points),
                covers,
                raw["answer"].strip(),
            )
        )
    if len({item.id for item in items}) != len(items):
        raise ValueError("answer ids repeat")
    return items


def stratified(items: Sequence[LabelledAnswer], limit: int | None) -> list[LabelledAnswer]:
    """The first ``limit`` answers taken round robin over the kinds (all when None)."""
    by_kind = [[item for item in items if item.kind == kind] for kind in KINDS]
    ordered = [
        group[index]
        for index in range(max(map(len, by_kind)))
        for group in by_kind
        if index < len(group)
    ]
    return ordered if limit is None else ordered[:limit]


# ---------------------------------------------------------------- one answer through the coach


@dataclass(frozen=True, slots=True)
class Call:
    """One HTTP request: its status (0 when nothing answered), time and tokens."""

    status: int
    seconds: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    content: str | None = None


class RecordingTransport:
    """A transport that times every request and reads its usage, around another one."""

    def __init__(self, inner: ChatTransport) -> None:
        self._inner = inner
        self.calls: list[Call] = []

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply:
        started = time.perf_counter()
        try:
            reply = await self._inner.post_json(
                url,
                body,
                headers=headers,
                connect_timeout=connect_timeout,
                total_timeout=total_timeout,
            )
        except TransportFailure:
            self.calls.append(Call(0, time.perf_counter() - started))
            raise
        self.calls.append(_call_of(reply, time.perf_counter() - started))
        return reply


def _call_of(reply: HttpReply, seconds: float) -> Call:
    if reply.status >= 300:
        return Call(reply.status, seconds)
    try:
        payload = json.loads(reply.body)
        usage = payload.get("usage") or {}
        content = payload["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return Call(reply.status, seconds)
    return Call(
        reply.status,
        seconds,
        int(usage.get("prompt_tokens", 0)),
        int(usage.get("completion_tokens", 0)),
        content if isinstance(content, str) else None,
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the coach made of one labelled answer."""

    item: LabelledAnswer
    proposed: frozenset[int]  # the in-range points the model proposed, before verification
    verified: frozenset[int]  # the points whose tick stands
    dropped: Mapping[DropReason, int]
    failure: str | None  # malformed | unavailable | refused
    calls: tuple[Call, ...] = ()
    mode: str | None = None
    content: str | None = None  # the reply that was verified, for the cache

    @property
    def answered(self) -> bool:
        return self.failure is None


def outcome_of(
    item: LabelledAnswer, verification: Verification, calls: Sequence[Call], **extra: Any
) -> Outcome:
    n = len(item.key_points)
    proposed = {tick.point for tick in verification.ticks} | {
        tick.point for tick in verification.dropped if 1 <= tick.point <= n
    }
    return Outcome(
        item,
        frozenset(proposed),
        frozenset(verification.quotes),
        verification.dropped_counts(),
        None,
        tuple(calls),
        **extra,
    )


async def assess(
    item: LabelledAnswer, client: CoachClient, recorder: RecordingTransport
) -> Outcome:
    """``item`` through the coach's pipeline, its failures caught and named."""
    first = len(recorder.calls)
    try:
        assessment = await assess_answer(
            client, question=item.question, key_points=item.key_points, answer=item.answer
        )
    except (MalformedOutput, EndpointUnavailable, EndpointRefused) as error:
        failure = {
            MalformedOutput: "malformed",
            EndpointUnavailable: "unavailable",
            EndpointRefused: "refused",
        }[type(error)]
        calls = tuple(recorder.calls[first:])
        return Outcome(item, frozenset(), frozenset(), {}, failure, calls)
    calls = tuple(recorder.calls[first:])
    content = next((call.content for call in reversed(calls) if call.content is not None), None)
    return outcome_of(
        item, assessment.verification, calls, mode=str(assessment.mode), content=content
    )


def reverified(item: LabelledAnswer, cached: Mapping[str, Any]) -> Outcome:
    """A cached reply verified again (with today's verification)."""
    calls = tuple(Call(**call) for call in cached["calls"])
    if cached["failure"] is not None:
        return Outcome(item, frozenset(), frozenset(), {}, cached["failure"], calls)
    verification = verify(
        parse_ticks(cached["content"]),
        question=item.question,
        key_points=item.key_points,
        answer=item.answer,
    )
    return outcome_of(item, verification, calls, mode=cached["mode"], content=cached["content"])


def cache_entry(outcome: Outcome) -> dict[str, Any]:
    calls = [
        {
            "status": call.status,
            "seconds": round(call.seconds, 3),
            "prompt_tokens": call.prompt_tokens,
            "completion_tokens": call.completion_tokens,
        }
        for call in outcome.calls
    ]
    return {
        "failure": outcome.failure,
        "content": outcome.content,
        "mode": outcome.mode,
        "calls": calls,
    }


async def run(
    items: Sequence[LabelledAnswer],
    client: CoachClient,
    recorder: RecordingTransport,
    *,
    model: str,
    cache: dict[str, Any] | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Every item through the coach, one at a time (a local server answers one at a time)."""
    outcomes = []
    for item in items:
        key = coach_cache_key(item.question, item.key_points, item.answer, model=model)
        if cache is not None and key in cache:
            outcome = reverified(item, cache[key])
        else:
            outcome = await assess(item, client, recorder)
            if cache is not None:
                cache[key] = cache_entry(outcome)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Counts:
    """Key points ticked and labelled: true positives, false positives, false negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None
        return 2 * p * r / (p + r)


def point_counts(ticked: Iterable[int], covers: Iterable[int]) -> Counts:
    ticked, covers = set(ticked), set(covers)
    return Counts(len(ticked & covers), len(ticked - covers), len(covers - ticked))


BEFORE = "before"
AFTER = "after"


def ticked(outcome: Outcome, stage: str) -> frozenset[int]:
    return outcome.proposed if stage == BEFORE else outcome.verified


def counts(outcomes: Iterable[Outcome], stage: str) -> Counts:
    total = Counts()
    for outcome in outcomes:
        if outcome.answered:
            total += point_counts(ticked(outcome, stage), outcome.item.covers)
    return total


def derived_grade(outcome: Outcome, stage: str) -> Grade:
    return grade_from_coverage(len(ticked(outcome, stage)), len(outcome.item.key_points))


@dataclass(frozen=True, slots=True)
class Grades:
    answers: int
    right: int
    lenient: int  # above the label's grade
    strict: int  # below it


def grades(outcomes: Iterable[Outcome], stage: str) -> Grades:
    answered = [outcome for outcome in outcomes if outcome.answered]
    pairs = [(derived_grade(outcome, stage), outcome.item.label_grade) for outcome in answered]
    return Grades(
        len(pairs),
        sum(1 for derived, label in pairs if derived == label),
        sum(1 for derived, label in pairs if derived > label),
        sum(1 for derived, label in pairs if derived < label),
    )


def unearned_ticks(outcomes: Iterable[Outcome], stage: str) -> tuple[int, int]:
    """False ticks on injection and keyword-stuffed answers, and how many such answers got one."""
    false = [
        counts([outcome], stage).fp
        for outcome in outcomes
        if outcome.answered and outcome.item.kind in UNEARNED
    ]
    return sum(false), sum(1 for fp in false if fp)


def dropped(outcomes: Iterable[Outcome]) -> Counter[DropReason]:
    total: Counter[DropReason] = Counter()
    for outcome in outcomes:
        total.update(outcome.dropped)
    return total


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in 0..1); None without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


# ---------------------------------------------------------------- the report


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _of(part: int, whole: int) -> str:
    return f"{part}/{whole}" if whole else "–"


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f} s"


def report(outcomes: Sequence[Outcome], *, title: str) -> str:
    lines = [f"### {title}", ""]
    lines += [
        "| answers | kind | labelled points | P before | R before | F1 before "
        "| P after | R after | F1 after | false ticks before → after |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups = [(kind, [o for o in outcomes if o.item.kind == kind]) for kind in KINDS]
    for kind, group in [("all (micro)", list(outcomes)), *groups]:
        if not group:
            continue
        answered = [o for o in group if o.answered]
        before, after = counts(group, BEFORE), counts(group, AFTER)
        labelled = sum(len(o.item.covers) for o in answered)
        lines.append(
            f"| {_of(len(answered), len(group))} | {kind} | {labelled} "
            f"| {_share(before.precision)} | {_share(before.recall)} | {_share(before.f1)} "
            f"| {_share(after.precision)} | {_share(after.recall)} | {_share(after.f1)} "
            f"| {before.fp} → {after.fp} |"
        )
    lines += ["", "| derived grade | before verification | after verification |", "|---|---:|---:|"]
    graded = {stage: grades(outcomes, stage) for stage in (BEFORE, AFTER)}
    rows: list[tuple[str, Callable[[Grades], int]]] = [
        ("equals the label's grade", lambda g: g.right),
        ("more lenient than the label", lambda g: g.lenient),
        ("stricter than the label", lambda g: g.strict),
    ]
    for name, value in rows:
        cells = " | ".join(
            _of(value(graded[stage]), graded[stage].answers) for stage in (BEFORE, AFTER)
        )
        lines.append(f"| {name} | {cells} |")
    unearned = {stage: unearned_ticks(outcomes, stage) for stage in (BEFORE, AFTER)}
    unearned_answers = sum(1 for o in outcomes if o.answered and o.item.kind in UNEARNED)
    lines.append(
        "| false ticks on injection + keyword-stuffed (answers with one) | "
        + " | ".join(
            f"{unearned[stage][0]} ({_of(unearned[stage][1], unearned_answers)})"
            for stage in (BEFORE, AFTER)
        )
        + " |"
    )
    drops = dropped(outcomes)
    proposed_ticks = sum(drops.values()) + sum(len(o.verified) for o in outcomes)
    lines += ["", f"| ticks dropped by the verification (of {proposed_ticks} proposed) | count |"]
    lines.append("|---|---:|")
    for reason in DropReason:
        lines.append(f"| {reason.value} | {drops.get(reason, 0)} |")
    lines.append(f"| **all** | **{sum(drops.values())}** |")
    calls = [call for o in outcomes for call in o.calls]
    per_request = [call.seconds for call in calls]
    per_answer = [sum(call.seconds for call in o.calls) for o in outcomes if o.calls]
    failures = Counter(o.failure for o in outcomes if o.failure)
    modes = Counter(o.mode for o in outcomes if o.mode)
    lines += [
        "",
        "| requests | prompt tokens | completion tokens | malformed (after a retry) "
        "| unavailable | refused | latency p50 / p95 per request | per answer | output mode |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {len(calls)} | {sum(c.prompt_tokens for c in calls)} "
        f"| {sum(c.completion_tokens for c in calls)} | {failures['malformed']} "
        f"| {failures['unavailable']} | {failures['refused']} "
        f"| {_seconds(percentile(per_request, 0.5))} / {_seconds(percentile(per_request, 0.95))} "
        f"| {_seconds(percentile(per_answer, 0.5))} / {_seconds(percentile(per_answer, 0.95))} "
        f"| {', '.join(f'{mode} ×{n}' for mode, n in modes.items()) or '–'} |",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------- the scripted endpoints

_ANSWER = re.compile(r"⟦ANSWER (?P<tag>[0-9a-f]+)⟧\n(?P<answer>.*)\n⟦END (?P=tag)⟧", re.DOTALL)
_KEY_POINT = re.compile(r"^(?P<number>\d+)\. (?P<text>.+)$", re.MULTILINE)
_ASKS_FOR_TICKS = re.compile(
    r"[^.\n]*\b(ignore|tick every|mark (all|every)|full marks|all .{0,20}covered|remaining points)"
    r"[^.\n]*",
    re.IGNORECASE,
)
Script = Callable[[str, Sequence[str]], dict[str, Any]]


def first_sentence(answer: str, key_points: Sequence[str]) -> dict[str, Any]:
    """Ticks every key point, each quoting the answer's first sentence."""
    sentence = re.split(r"(?<=[.!?])\s|\n", answer.strip(), maxsplit=1)[0]
    return {"ticks": [{"point": n, "quote": sentence} for n in range(1, len(key_points) + 1)]}


def obedient(answer: str, key_points: Sequence[str]) -> dict[str, Any]:
    """Does what the answer asks: replays its JSON, ticks all when told to, ticks what it
    pastes; ticks nothing otherwise."""
    start = answer.find('{"ticks"')
    if start != -1:
        try:
            replayed, _ = json.JSONDecoder().raw_decode(answer[start:])
        except ValueError:
            pass
        else:
            return dict(replayed)
    asked = _ASKS_FOR_TICKS.search(answer)
    if asked:
        quote = asked.group(0).strip()
        return {"ticks": [{"point": n, "quote": quote} for n in range(1, len(key_points) + 1)]}
    pasted = [
        {"point": n, "quote": point}
        for n, point in enumerate(key_points, 1)
        if " ".join(point.lower().split()) in " ".join(answer.lower().split())
    ]
    return {"ticks": pasted}


SCRIPTS: dict[str, Script] = {"first-sentence": first_sentence, "obedient": obedient}


class ScriptedTransport:
    """An in-process endpoint that answers with ``script``'s ticks; usage counts words."""

    def __init__(self, script: Script) -> None:
        self._script = script

    async def post_json(
        self,
        url: str,
        body: Mapping[str, Any],
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        total_timeout: float,
    ) -> HttpReply:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        found = _ANSWER.search(user)
        if found is None:
            raise AssertionError("the request carries no delimited answer")
        listed = user.split("Key points:\n", 1)[1].split("\n\n", 1)[0]
        key_points = [match.group("text") for match in _KEY_POINT.finditer(listed)]
        content = json.dumps(self._script(found.group("answer"), key_points), ensure_ascii=False)
        usage = {
            "prompt_tokens": sum(len(m["content"].split()) for m in body["messages"]),
            "completion_tokens": len(content.split()),
        }
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        payload = {"choices": [{"message": {"role": "assistant", "content": content}}]}
        return HttpReply(200, json.dumps({**payload, "usage": usage}).encode())


# ---------------------------------------------------------------- the command


@dataclass
class Settings:
    url: str
    model: str
    limit: int | None = None
    cache: Path | None = None
    scripted: str | None = None
    max_tokens: int = 256
    timeout: float = 120.0
    labels: Path = LABELS
    quiet: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


async def bench(settings: Settings) -> list[Outcome]:
    items = stratified(load_labels(settings.labels), settings.limit)
    key = os.environ.get("QUIZBOT_COACH_API_KEY")
    endpoint = CoachEndpoint(
        base_url=settings.url,
        model=settings.model,
        api_key=SecretStr(key) if key else None,
        request_timeout=settings.timeout,
        max_output_tokens=settings.max_tokens,
    )
    cache: dict[str, Any] | None = None
    if settings.cache is not None:
        cache = json.loads(settings.cache.read_text()) if settings.cache.exists() else {}

    def progress(outcome: Outcome) -> None:
        if settings.quiet:
            return
        seconds = sum(call.seconds for call in outcome.calls)
        print(
            f"{outcome.item.id:<18} {outcome.item.kind:<17} label {sorted(outcome.item.covers)} "
            f"proposed {sorted(outcome.proposed)} stands {sorted(outcome.verified)} "
            f"{outcome.failure or ''} {seconds:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        if cache is not None and settings.cache is not None:
            settings.cache.write_text(json.dumps(cache, ensure_ascii=False, indent=1))

    if settings.scripted is not None:
        recorder = RecordingTransport(ScriptedTransport(SCRIPTS[settings.scripted]))
        return await run(
            items,
            CoachClient(endpoint, recorder),
            recorder,
            model=settings.model,
            cache=cache,
            progress=progress,
        )
    async with AiohttpChatTransport() as transport:
        recorder = RecordingTransport(transport)
        return await run(
            items,
            CoachClient(endpoint, recorder),
            recorder,
            model=settings.model,
            cache=cache,
            progress=progress,
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", default=os.environ.get("QUIZBOT_COACH_URL", "http://127.0.0.1:8765/v1")
    )
    parser.add_argument("--model", default=os.environ.get("QUIZBOT_COACH_MODEL", "smollm2"))
    parser.add_argument("--limit", type=int, help="a stratified subset of this many answers")
    parser.add_argument("--cache", type=Path, help="a JSON file of replies, reused on a rerun")
    parser.add_argument("--scripted", choices=sorted(SCRIPTS), help="offline, in process")
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--quiet", action="store_true", help="no line per answer on stderr")
    args = parser.parse_args(argv)
    settings = Settings(
        url=args.url,
        model=f"scripted-{args.scripted}" if args.scripted else args.model,
        limit=args.limit,
        cache=args.cache,
        scripted=args.scripted,
        max_tokens=args.max_tokens,
        timeout=args.timeout,
        labels=args.labels,
        quiet=args.quiet,
    )
    started = time.perf_counter()
    outcomes = asyncio.run(bench(settings))
    where = "scripted, in process" if args.scripted else f"{args.url}"
    title = (
        f"coach `{settings.model}` ({where}): {len(outcomes)} answers, "
        f"{len({o.item.question_id for o in outcomes})} questions, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(report(outcomes, title=title))


if __name__ == "__main__":
    main()
