"""The plan's pure logic (no I/O; the clock is the request's): the commit request read, and
the vocabulary a plan is read with.

:func:`read` is a turn's first step: its time, its plan (``plan``, or the LLM's raw ``answer``,
whose reply becomes the assistant message), its message rows with fresh ids, the idempotency
key ``commit:{agent}:{chat}:{turn_id}`` and a hash of the body. A bad plan or answer is an
:class:`InvalidInput` listing every problem: what the schema cannot say is checked here
(:func:`check_plan`).

The vocabulary: the handles that mean the user, the categories an ``entity_ref`` or a
predicate's object implies, what counts as a feeling (the words themselves: :mod:`..text`).
The later stages (:mod:`.plan`, :mod:`.response`) decide with these too."""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime
from typing import Literal

import msgspec

from contracts.memory import CommitRequest
from contracts.plan import LLMAnswer, MemoryWritePlan, PlanFact
from services.core.clock import check_times, out_of_range, request_clock
from services.core.errors import FieldError, InvalidInput
from services.core.validation import decode
from services.memory_upserter.commit.turn import MessageRow, ReadTurn
from services.memory_upserter.extract.temporal import parse_when
from services.memory_upserter.text import fold

SELF_HANDLES = frozenset({"user", "me", "self", "i", "myself", "self:user", "the user"})
SELF = -1  # the handle index of the user's own entity
REF_CATEGORIES = {
    "person": "Person",
    "place": "Location",
    "org": "Org",
    "project": "Project",
    "goal": "Goal",
    "food": "Food",
    "habit": "Habit",
    "pet": "Pet",
    "thing": "Thing",
    "event": "Event",
}
OBJECT_CATEGORIES = {
    "LIVES_IN": "Location",
    "BORN_IN": "Location",
    "FROM": "Location",
    "VISITED": "Location",
    "HOMETOWN": "Location",
    "WORKS_AT": "Org",
    "STUDIES_AT": "Org",
    "MEMBER_OF": "Org",
    "WORKS_ON": "Project",
    "HAS_PET": "Pet",
}
AFFECT_PREDICATES = frozenset(
    {"FEELS", "FEELING", "MOOD", "EMOTION", "AFFECT", "IS_FEELING", "FEELS_LIKE", "EMOTIONAL_STATE"}
)


def read(req: CommitRequest) -> ReadTurn:
    check_times(
        [("$.now", req.now), *((f"$.messages[{i}].ts", m.ts) for i, m in enumerate(req.messages))]
    )
    now = request_clock(req.now or max((m.ts for m in req.messages if m.ts), default=None))
    plan, reply = req.plan, None
    source: Literal["request", "answer"] | None = "request" if req.plan is not None else None
    errors: list[FieldError] = []
    if req.answer is not None:
        if req.plan is not None:
            errors.append(FieldError("$.answer", "give plan or answer, not both"))
        else:
            answer, planned = _answer(req.answer)
            plan, reply = (answer.plan, answer.reply) if planned else (None, answer.reply)
            source = "answer" if planned else None
    if plan is not None:
        errors += check_plan(plan, "$.plan" if source == "request" else "$.answer.plan", now)
    if errors:
        raise InvalidInput(errors)
    messages = [(m.role, m.speaker, m.text, m.external_id, m.ts) for m in req.messages]
    if reply is not None and not any(m.role == "assistant" for m in req.messages):
        messages.append(("assistant", None, reply, None, None))
    reply = next((text for role, _, text, _, _ in reversed(messages) if role == "assistant"), None)
    rows = tuple(
        MessageRow(uuid.uuid4(), i, role, speaker, text, ext, ts or now)
        for i, (role, speaker, text, ext, ts) in enumerate(messages)
    )
    return ReadTurn(
        req=req,
        now=now,
        key=f"commit:{req.agent_id}:{req.chat_id}:{req.turn_id}",
        digest=hashlib.sha256(msgspec.json.encode(req)).hexdigest(),
        rows=rows,
        user_rows=tuple(r for r in rows if r.role == "user"),
        reply=reply,
        plan=plan,
        plan_source=source,
    )


def _answer(raw: str) -> tuple[LLMAnswer, bool]:
    """The answer, and whether it carries a plan (an answer without one — a question the
    flow asked instead of the model — leaves the turn to the shadow judge)."""
    text = raw.strip()
    if text.startswith("```"):  # a model that fenced its JSON
        text = text.strip("`").removeprefix("json").strip()
    try:
        answer = decode(text.encode(), LLMAnswer)
        return answer, "plan" in msgspec.json.decode(text)
    except InvalidInput as exc:
        raise InvalidInput(
            [FieldError("$.answer" + e.path[1:], e.reason) for e in exc.errors], "Invalid answer"
        ) from None


def validity(fact: PlanFact, now: datetime) -> tuple[datetime | None, datetime | None]:
    """The fact's ``valid_from``/``valid_to`` resolved against the turn (None: not given or
    not understood; :func:`check_plan` refuses the latter)."""
    return (
        parse_when(fact.valid_from, now) if fact.valid_from else None,
        parse_when(fact.valid_to, now) if fact.valid_to else None,
    )


def check_plan(plan: MemoryWritePlan, path: str, now: datetime) -> list[FieldError]:
    """What the schema cannot say: each fact names its object or its value, not both; its
    validity is understood and does not end before it begins."""
    errors = []
    for i, fact in enumerate(plan.facts):
        start, end = validity(fact, now)
        for name, given, parsed in (
            ("valid_from", fact.valid_from, start),
            ("valid_to", fact.valid_to, end),
        ):
            if given and parsed is None:
                errors.append(
                    FieldError(
                        f"{path}.facts[{i}].{name}", "not understood: give an ISO date or date-time"
                    )
                )
            elif parsed is not None and out_of_range(parsed, "x") is not None:
                errors.append(
                    FieldError(f"{path}.facts[{i}].{name}", "must be between 1970 and 2199")
                )
        if start is not None and end is not None and end < start:
            errors.append(
                FieldError(f"{path}.facts[{i}].valid_to", "must not be before valid_from")
            )
        if fact.object is not None and fact.value is not None:
            errors.append(
                FieldError(
                    f"{path}.facts[{i}]", "give either object (an entity) or value (a literal)"
                )
            )
        if fact.object is not None and fold(fact.object) == fold(fact.subject):
            errors.append(
                FieldError(f"{path}.facts[{i}].object", "a fact cannot relate an entity to itself")
            )
    return errors
