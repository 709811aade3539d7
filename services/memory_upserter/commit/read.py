"""The commit request read, and the vocabulary a plan is read with: pure logic (the clock is the
request's) but for one read, the person's time zone.

:func:`read` is a turn's first step: its time, its plan (``plan``, or the LLM's raw ``answer``,
whose reply becomes the assistant message), its message rows with fresh ids, the idempotency
key ``commit:{agent}:{chat}:{turn_id}`` and a hash of the body. A model's plan or answer is
never refused: :mod:`.lenient` keeps its valid parts and notes what it repaired or dropped
(the turn's ``notes``, answered as warnings); what the flow sends wrong is an
:class:`InvalidInput` naming the field. :func:`read_turn` reads it in the person's time zone
(:func:`person_zone`, the one read it makes), in which a plan's date-only words are read
("until friday" ends at the end of Friday there, "tomorrow at 10" is 10:00 there): the IANA
name ``users.timezone`` (set by ``POST /v1/profile``), else the UTC offset the flow wrote in
the request's ``now``, else UTC.

The vocabulary: the handles that mean the user, the categories an ``entity_ref`` or a
predicate's object implies, what counts as a feeling (the words themselves: :mod:`..text`).
The later stages (:mod:`.plan`, :mod:`.fact_writes`) decide with these too."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from contracts.common import TEXT_MAX
from contracts.memory import CommitRequest, Notice
from services.core.clock import check_times, request_clock
from services.core.errors import FieldError, InvalidInput
from services.memory_upserter.commit.lenient import SELF_HANDLES as SELF_HANDLES
from services.memory_upserter.commit.lenient import read_answer, read_plan
from services.memory_upserter.commit.shape import trust_of
from services.memory_upserter.commit.stays import stays
from services.memory_upserter.commit.turn import MessageRow, ReadTurn
from services.memory_upserter.text import (
    fold as fold,
)  # re-exported: bench/extraction reads it here

if TYPE_CHECKING:  # the one read runs on the caller's pool; importing stays pure
    from services.core.deps import Database

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


_ZONE = "SELECT timezone FROM users WHERE user_id = $1"


async def read_turn(db: Database, req: CommitRequest) -> ReadTurn:
    """The turn read (:func:`read`) in the person's zone (:func:`person_zone`), off the event
    loop: reading a plan at every cap against a megabyte of messages (each fact's time words and
    bounds in the person's words) took seconds, and every node shares the loop."""
    zone = await person_zone(db, req.user_id, req.now)
    return await asyncio.to_thread(read, req, zone)


async def person_zone(db: Database, user_id: str, now: datetime | None) -> tzinfo:
    async with db.acquire() as conn:
        name = await conn.fetchval(_ZONE, user_id)
    return zone_of(name, now)


def zone_of(name: str | None, now: datetime | None) -> tzinfo:
    """The zone named (an unknown name is ignored), else ``now``'s offset, else UTC."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    if now is not None and now.tzinfo is not None:
        return now.tzinfo
    return UTC


def read(req: CommitRequest, zone: tzinfo = UTC) -> ReadTurn:
    """The turn read; only what the flow itself sends wrong (times out of range, both ``plan``
    and ``answer``) is an :class:`InvalidInput`. The model-written part is read part by part
    (:mod:`.lenient`), its time words in the person's ``zone``."""
    check_times(
        [("$.now", req.now), *((f"$.messages[{i}].ts", m.ts) for i, m in enumerate(req.messages))]
    )
    now = request_clock(req.now or max((m.ts for m in req.messages if m.ts), default=None))
    if req.plan is not None and req.answer is not None:
        raise InvalidInput([FieldError("$.answer", "give plan or answer, not both")])
    raw, path, reply, notes = req.plan, "$.plan", None, []
    cut = cut_notes(req)
    if req.answer is not None:
        answer = read_answer(req.answer)
        raw, path, reply, notes = answer.plan, "$.answer.plan", answer.reply, answer.notes
    plan = None
    source: Literal["request", "answer"] | None = None
    if raw is not None:
        said = [m.text for m in req.messages if m.role == "user"]
        plan, read_notes = read_plan(raw, path, now.astimezone(zone), said)
        if plan is not None:
            plan, stay_notes = stays(plan, path, now)
            read_notes += stay_notes
            source = "request" if req.plan is not None else "answer"
        notes += read_notes
    messages = [(m.role, m.speaker, m.text, m.external_id, m.ts) for m in req.messages]
    notes += cut
    if reply is not None and not any(m.role == "assistant" for m in req.messages):
        messages.append(("assistant", None, reply, None, None))
    reply = next((text for role, _, text, _, _ in reversed(messages) if role == "assistant"), None)
    rows = tuple(
        MessageRow(uuid.uuid4(), i, role, speaker, text[:TEXT_MAX], ext, ts or now)
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
        zone=zone,
        notes=tuple(notes),
        trust=trust_of(req.answer, req.plan),
    )


def cut_notes(req: CommitRequest) -> list[Notice]:
    """A message over :data:`TEXT_MAX` characters is stored cut, never refused: a warning each."""
    return [
        Notice(
            code="message_cut",
            detail=f"$.messages[{i}].text: {len(m.text)} characters, stored cut to {TEXT_MAX}",
        )
        for i, m in enumerate(req.messages)
        if len(m.text) > TEXT_MAX
    ]
