"""The shadow judge (001): a memory-write plan for a turn that came without one.

It reads user messages only — this turn's, plus up to four earlier ones of the last 60 minutes
of the session as context — and asks the configured LLM for a plan under the
``MemoryWritePlan`` JSON schema within ``settings.llm_timeout_s``. With no LLM configured the
deterministic offline extractor answers; when the LLM fails (timeout, error status, output that
is not a valid plan) the offline extractor answers too, and the commit says so in ``warnings``.

It never promotes affect. It forgets only what the person asks for in their own message
("please forget that I told you about Marta Silva"): the offline extractor reads the request
(:func:`~..extract.assertion.forget_target`) and its target is the plan's ``forget`` — a model's
``forget`` is kept only where it names what such a request names (:func:`asked_forget`). The
commit applies it as a soft forget and says so (:mod:`.asked`). It ends facts by words where it
cannot name a handle ("that's wrong, I'm only allergic to peanuts" → ``ends``: "ALLERGY except
peanuts"; :mod:`.asked` resolves them against the person's facts).
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import msgspec
import structlog

from contracts.plan import MemoryWritePlan
from services.core.errors import InvalidInput
from services.core.llm import LLM, LLMMalformedOutput, LLMUnavailable
from services.core.validation import convert
from services.memory_upserter.extract.extractor import Extracted, Utterance, extract_turn
from services.memory_upserter.extract.people import Known
from services.memory_upserter.text import fold

WINDOW = 4  # earlier user messages shown as context (001: up to 4, deduped, last 60 minutes)
SCHEMA_NAME = "memory_write_plan"

SYSTEM = """You are the memory judge of a personal assistant. From the NEW messages of the \
person, extract what memory should keep, as a memory-write plan in the given JSON schema.
- facts: durable facts the person asserts outright — never from a question, a hypothetical \
("if", "what if", "imagine"), a wish or a maybe, a negation, a claim they dispute, or quoted \
text; a past state ("I used to") is not current. Put time in valid_from / valid_to (ISO dates \
resolved against "now", e.g. "last week", "until Friday"), never in the value. "No longer X": \
the fact X with valid_to = now. Every object and value must be words the person used.
  Durable facts are typed PROFILE (the person: subject "user"), PEOPLE \
(people in their life) or PROJECT (what they work on). Use UPPER_SNAKE predicates such as \
LIVES_IN, WORKS_AT, JOB_TITLE, NAME, DIET, ALLERGY, LIKES, HAS_SISTER, WORKS_ON. Relate \
entities with "object" (and list them in "entities"), literals with "value". When a message has \
a speaker other than the person, facts about what that speaker says of themselves have that \
speaker's name as subject. Never a guess, never a feeling or a mood, never an open loop.
- todos: what the person asked to be reminded of, added to a list, committed to (COMMITMENT \
with a due date in words or ISO), threads, frictions, habits; only the person's own.
- complete_commitment: true only when the person says something is done, finished or completed.
- promote_affect: always null.
- forget: only when the person asks you to forget something ("please forget that I told you \
about X", "don't remember my address"): the thing, in their words. Otherwise [].
EARLIER messages are context only (who "she" is): extract nothing from them. Empty lists when \
nothing new was said."""


@dataclass(frozen=True)
class Judged:
    plan: MemoryWritePlan
    source: Literal["llm_judge", "offline_extractor"]
    warning: str | None = None
    questions: list[str] = field(default_factory=list)  # whom a todo means, when unclear
    context: list[str] = field(default_factory=list)  # the earlier user messages shown


@functools.cache
def plan_schema() -> dict[str, Any]:
    """The plan's schema in the subset strict structured output accepts."""
    # envelope-validator owns the strict-schema conversion (the LLMAnswer it asks for); the
    # judge asks for the plan alone, through the same conversion.
    from services.core.json_schema import strict_schema

    return strict_schema(MemoryWritePlan)


def window(earlier: Sequence[Utterance], new: Sequence[Utterance]) -> list[Utterance]:
    """Up to :data:`WINDOW` earlier user messages, newest last, without repeats of each other
    or of this turn's."""
    seen = {fold(u.text) for u in new}
    kept: list[Utterance] = []
    for utterance in reversed(earlier):
        key = fold(utterance.text)
        if key and key not in seen:
            seen.add(key)
            kept.append(utterance)
        if len(kept) == WINDOW:
            break
    return kept[::-1]


_CAPITALIZED = re.compile(r"\b[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?")


def names_in(utterances: Sequence[Utterance]) -> list[str]:
    """The folded capitalized words and word pairs of the turn: the names whose known people
    the judge needs (same-name decisions)."""
    names: set[str] = set()
    for u in utterances:
        for match in _CAPITALIZED.finditer(u.text):
            parts = match.group(0).split()
            names.update(fold(p) for p in parts)
            names.add(fold(match.group(0)))
    return sorted(names)[:200]


async def judge(
    llm: LLM | None,
    *,
    new: Sequence[Utterance],
    earlier: Sequence[Utterance],
    self_names: Sequence[str],
    now: datetime,
    timeout_s: float,
    known: Sequence[Known] = (),
    asked: str | None = None,
) -> Judged:
    """The turn's plan; ``asked`` (the assistant's previous reply) lets the offline judge read a
    short answer with the question it answers ("since I was 17" after "how long have you been
    painting?")."""
    context = window(earlier, new)
    said_before = [u.text for u in context]

    async def read_offline() -> Extracted:
        # CPU-bound on long messages: off the loop, which every node of `twin up` shares
        return await asyncio.to_thread(
            functools.partial(
                extract_turn,
                new,
                now=now,
                context=context,
                self_names=self_names,
                known=known,
                asked=asked,
            )
        )

    async def offline(warning: str | None = None) -> Judged:
        out = await read_offline()
        return Judged(out.plan, "offline_extractor", warning, out.questions, said_before)

    if llm is None or not any(u.text.strip() for u in new):
        return await offline()
    try:
        raw = await llm.complete_json(
            system=SYSTEM,
            user=_prompt(new, context, now),
            schema=plan_schema(),
            schema_name=SCHEMA_NAME,
            timeout=timeout_s,
        )
        plan = convert(raw, MemoryWritePlan)
    except LLMUnavailable as exc:
        structlog.get_logger().warning(
            "judge_fallback", reason="unavailable", status=exc.status_code
        )
        return await offline(
            f"the shadow judge's model did not answer ({exc.detail}); "
            "the offline extractor wrote this plan"
        )
    except (LLMMalformedOutput, InvalidInput) as exc:
        structlog.get_logger().warning(
            "judge_fallback", reason="malformed", error=type(exc).__name__
        )
        return await offline(
            "the shadow judge's model answered something that is not a valid plan; "
            "the offline extractor wrote this plan"
        )
    read = await read_offline()
    forget = asked_forget(plan.forget, read.plan.forget)
    return Judged(
        msgspec.structs.replace(
            plan,
            promote_affect=None,
            forget=forget,
            ends=list(dict.fromkeys([*plan.ends, *read.plan.ends]))[:20],
        ),
        "llm_judge",
        questions=read.questions,
        context=said_before,
    )


def asked_forget(model: Sequence[str], asked: Sequence[str]) -> list[str]:
    """What is forgotten: the targets the person's own request names (``asked``, read by rule),
    and a model's target only where it names the same thing (one holds the other's words) —
    a model never forgets on its own."""
    folded = [fold(a) for a in asked]
    kept = [m for m in model if any(fold(m) in a or a in fold(m) for a in folded if a)]
    return list(dict.fromkeys([*asked, *kept]))


def forgets_asked(model: Sequence[str], said: Sequence[str], now: datetime) -> list[str]:
    """A plan's ``forget`` (the model's or the flow's), kept where the person's own words
    (``said``) ask for it (:func:`asked_forget`), never added to."""
    asked = extract_turn([Utterance(t) for t in said], now=now).plan.forget
    folded = [fold(a) for a in asked]
    return [m for m in model if any(fold(m) in a or a in fold(m) for a in folded if a)]


def _prompt(new: Sequence[Utterance], context: Sequence[Utterance], now: datetime) -> str:
    def line(u: Utterance) -> dict[str, str]:
        return {"speaker": u.speaker or "the person", "text": u.text}

    return msgspec.json.encode(
        {
            "now": now.isoformat(),
            "earlier": [line(u) for u in context],
            "new": [line(u) for u in new],
        }
    ).decode()
