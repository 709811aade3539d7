"""``POST /v1/profile``: seed a user's profile (000 UserSeed), idempotently.

The seed text (≤ 800 chars) goes to ``user_seeds`` ("User context"); each fact is stored
pinned, importance 3, source ``seeded_profile`` — the foundation memories every agent sees
first — through the same dedup as conversation facts, without counting as a restatement.
Seeding the same profile twice changes nothing and answers ``unchanged`` throughout; a seed
does not remove facts an earlier seed stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, cast
from uuid import UUID
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from contracts.common import Category
from contracts.memory import EntityWritten, Notice
from contracts.memory_admin import ProfileRequest, ProfileResponse
from contracts.plan import MemoryWritePlan, PlanEntity, PlanFact
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import FieldError, InvalidInput
from services.core.memory_store import (
    apply_facts,
    lock_user,
    self_entity_id,
    sync_fact_vectors,
    upsert_entities,
)
from services.core.vectors import VectorIndex
from services.memory_upserter.commit import sql as commit_sql
from services.memory_upserter.commit.fact_writes import fact_write
from services.memory_upserter.commit.names import resolve
from services.memory_upserter.commit.response import fact_written
from services.memory_upserter.text import fold

SOURCE = "seeded_profile"
DEFAULT_PREDICATE = "NOTE"

_SEED = """
WITH u AS (
    UPDATE users SET display_name = COALESCE($3, display_name),
                     timezone = COALESCE($4, timezone), updated_at = $5
     WHERE user_id = $1 AND ($3::text IS NOT NULL OR $4::text IS NOT NULL))
INSERT INTO user_seeds (user_id, content, source, created_at, updated_at)
SELECT $1, $2, 'seeded_profile', $5, $5 WHERE $2::text IS NOT NULL
ON CONFLICT (user_id) DO UPDATE SET content = EXCLUDED.content, source = EXCLUDED.source,
                                    updated_at = EXCLUDED.updated_at
 WHERE user_seeds.content IS DISTINCT FROM EXCLUDED.content
RETURNING (xmax = 0) AS created
"""


def check(req: ProfileRequest) -> None:
    errors = [
        FieldError(f"$.facts[{i}].scope", "scope 'agent' needs the request's agent_id")
        for i, f in enumerate(req.facts)
        if f.scope == "agent" and req.agent_id is None
    ]
    errors += [
        FieldError(f"$.facts[{i}]", "give either object or value, not both")
        for i, f in enumerate(req.facts)
        if f.object is not None and f.value is not None
    ]
    if req.timezone is not None:
        try:
            ZoneInfo(req.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            errors.append(FieldError("$.timezone", "not an IANA time zone"))
    if errors:
        raise InvalidInput(errors)


def as_plan(req: ProfileRequest) -> MemoryWritePlan:
    """The profile as a plan: pinned facts, their entities with the categories given."""
    entities: dict[str, PlanEntity] = {}
    facts = []
    for f in req.facts:
        for handle, category in ((f.subject, f.subject_category), (f.object, f.object_category)):
            if handle and fold(handle) not in ("user", "me") and ":" not in handle:
                entities.setdefault(fold(handle), PlanEntity(name=handle, category=category))
        facts.append(
            PlanFact(
                memory_type=f.memory_type,
                subject=f.subject,
                predicate=f.predicate or DEFAULT_PREDICATE,
                object=f.object,
                value=f.value,
                text=f.text,
                fact_type=f.fact_type,
                importance=3,
                pinned=True,
                confidence=f.confidence,
                scope=f.scope,
            )
        )
    return MemoryWritePlan(entities=list(entities.values()), facts=facts)


async def seed_profile(
    db: Database, vectors: VectorIndex, embedder: Embedder, req: ProfileRequest
) -> ProfileResponse:
    check(req)
    now = datetime.now(UTC)
    resolved = resolve(as_plan(req))
    agent = req.agent_id or ""
    async with db.acquire() as conn, conn.transaction():
        await lock_user(conn, req.user_id)
        await conn.execute(
            """WITH u AS (INSERT INTO users (user_id) VALUES ($1) ON CONFLICT DO NOTHING)
               INSERT INTO agents (agent_id) SELECT $2 WHERE $2 <> '' ON CONFLICT DO NOTHING""",
            req.user_id,
            agent,
        )
        seeded = await conn.fetchrow(
            _SEED, req.user_id, req.seed_text, req.display_name, req.timezone, now
        )
        entities = await upsert_entities(
            conn,
            req.user_id,
            resolved.writes,
            agent_id=req.agent_id,
            now=now,
            source=SOURCE,
            lock=False,
        )
        self_id = await _self(conn, req, now)
        writes = [
            fact_write(f, s, o, entities, self_id, agent, [], SOURCE) for f, s, o in resolved.facts
        ]
        results = await apply_facts(
            conn, req.user_id, writes, now=now, lock=False, count_reference=False
        )
    changed = [r.rel_id for r in results if r.outcome != "unchanged"]
    changed += [r.replaced_id for r in results if r.replaced_id]
    warning = await sync_fact_vectors(db, vectors, embedder, req.user_id, changed)
    return ProfileResponse(
        user_id=req.user_id,
        seed=_seed(req, seeded),
        entities=[
            EntityWritten(
                entity_id=str(e.entity_id),
                name=e.name,
                category=cast(Category, e.category),  # the entities table's check
                entity_ref=e.entity_ref,
                outcome=e.outcome,
            )
            for e in {e.entity_id: e for e in entities}.values()
        ],
        facts=[fact_written(w, r, now=None) for w, r in zip(writes, results, strict=True)],
        warnings=[Notice(code="vectors_unindexed", detail=warning)] if warning else [],
    )


async def _self(conn: Connection, req: ProfileRequest, now: datetime) -> UUID:
    """The person's own entity, with their display name as an alias."""
    self_id = await self_entity_id(conn, req.user_id)
    if req.display_name:
        names = [req.display_name]
        await conn.execute(
            commit_sql.SELF_ALIASES, req.user_id, self_id, SOURCE, names, names[0], now
        )
    return self_id


def _seed(req: ProfileRequest, seeded: Any) -> Literal["created", "updated", "unchanged", "absent"]:
    """What became of the seed text: none given, the same as stored, new, or replaced."""
    if req.seed_text is None:
        return "absent"
    if seeded is None:
        return "unchanged"
    return "created" if seeded["created"] else "updated"
