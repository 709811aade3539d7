"""The plan's facts as writes, once the turn's entities exist (pure): each :class:`FactWrite`
between the written entities (``SELF``: the user's own), with its memory key, its provenance
(the turn's user messages), its time (``valid_from``/``valid_to`` resolved against the turn) and
the stored fact a ``replaces`` handle named (:mod:`.supersede`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from contracts.plan import PlanFact
from contracts.slots import UNVERIFIED_BELOW
from services.core.memory_store.fact_ops import FactWrite
from services.core.memory_store.fact_types import nonempty
from services.core.memory_store.keys import canonical_predicate, memory_key, primary_ref
from services.core.memory_store.shapes import EntityResult
from services.memory_upserter.commit.fact_text import plain_fact_text
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.commit.turn import TurnPlan, Validity
from services.memory_upserter.extract.temporal import parse_when
from services.memory_upserter.extract.vocabulary import FOUNDATION_ROLES

# The person's own identity — name, home, work, study, diet, family, partner, pets: in every
# persona's FOUNDATION (importance 2 or more), whatever importance the model wrote (a small
# model writes none, so 1): what one persona learned reaches the others.
IDENTITY = frozenset(
    {"NAME", "LIVES_IN", "WORKS_AT", "JOB_TITLE", "HOMETOWN", "BORN_IN", "MARRIED_TO",
     "MARITAL_STATUS", "STUDIES_AT", "DIET", "HAS_SPOUSE", "DATING", "HAS_CHILDREN", "HAS_KIDS"}
    | {f"HAS_{role}" for role in FOUNDATION_ROLES}
)  # fmt: skip


def fact_writes(
    plan: TurnPlan,
    entities: Sequence[EntityResult],
    self_id: UUID | None,
    replaces: Mapping[str, UUID] | None = None,
) -> list[FactWrite]:
    """The plan's facts as writes between the written entities; ``replaces``: the fact each
    ``replaces`` handle named (:mod:`.supersede`)."""
    t, agent = plan.turn, plan.turn.req.agent_id
    named = replaces or {}
    provenance = [str(r.message_id) for r in (t.user_rows or t.rows)]
    return [
        replace(
            fact_write(
                f, s, o, entities, self_id, agent, provenance, plan.fact_source, validity(f, t.now)
            ),
            replaces=named.get(f.replaces) if f.replaces else None,
        )
        for f, s, o in plan.resolved.facts
    ]


def fact_write(
    fact: PlanFact,
    s: int,
    o: int | None,
    entities: Sequence[EntityResult],
    self_id: UUID | None,
    agent_id: str,
    provenance: list[str],
    source: str,
    valid: Validity = (None, None),
) -> FactWrite:
    """The fact between its subject and object (write indexes into ``entities``; ``SELF``:
    the user's own entity ``self_id``)."""

    def endpoint(index: int) -> tuple[UUID, str, str]:
        if index == SELF:
            assert self_id is not None, "a fact about the user needs the user's entity"
            return self_id, "self", "Person"
        e = entities[index]
        return e.entity_id, primary_ref(e.entity_ref, e.entity_id), e.category

    subject_id, subject_ref, category = endpoint(s)
    object_id, object_ref = endpoint(o)[:2] if o is not None else (None, None)
    predicate = canonical_predicate(fact.predicate, literal=o is None)
    text = plain_fact_text(fact.text, [(e.entity_ref, e.name) for e in entities if e.entity_ref])
    key = memory_key(
        memory_type=fact.memory_type,
        category=category,
        subject_ref=subject_ref,
        fact_type=fact.fact_type,
        predicate=predicate,
        object_ref=object_ref,
        value=fact.value or text,
    )
    return FactWrite(
        subject_entity_id=subject_id,
        predicate=predicate,
        text=text,
        memory_type=fact.memory_type,
        fact_type=fact.fact_type,
        object_entity_id=object_id,
        value=fact.value if object_id is None else None,
        importance=standing(fact, predicate, about_self=s == SELF),
        pinned=fact.pinned,
        confidence=fact.confidence,
        scope=fact.scope,
        agent_id=agent_id if fact.scope == "agent" else None,
        source=source,
        memory_key=key,
        message_ids=provenance,
        valid_from=valid[0],
        valid_to=valid[1],
    )


def standing(fact: PlanFact, predicate: str, *, about_self: bool) -> int:
    """The fact's importance: at least 2 for the person's own identity (:data:`IDENTITY`),
    global and verified (an unsure fact stays as it was lowered, out of FOUNDATION)."""
    identity = about_self and predicate in IDENTITY and fact.scope == "global"
    if identity and fact.confidence >= UNVERIFIED_BELOW:
        return max(fact.importance, 2)
    return fact.importance


def validity(fact: PlanFact, now: datetime) -> tuple[datetime | None, datetime | None]:
    """The fact's ``valid_from``/``valid_to`` resolved against the turn (None: not given or
    not understood; a model's plan has them resolved already, by :mod:`.lenient`), never an
    empty interval (:func:`~services.core.memory_store.fact_types.nonempty`)."""
    start = parse_when(fact.valid_from, now) if fact.valid_from else None
    end = parse_when(fact.valid_to, now, end=True) if fact.valid_to else None
    return nonempty(start, end, now) if start and end else (start, end)
