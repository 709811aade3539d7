"""The turn's people and places, written in the transaction (:mod:`.sql`'s order: after the
messages, before the facts that name them): each ``distinct_from`` resolved to the user's
namesake, the plan's entities upserted, and the user's own entity when a fact is about them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from uuid import UUID

from contracts.memory import Notice
from services.core.deps import Connection
from services.core.memory_store import self_entity_id, upsert_entities
from services.core.memory_store.shapes import EntityResult, EntityWrite
from services.memory_upserter.commit import sql
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.commit.turn import PLAN_PATHS, TurnPlan
from services.memory_upserter.extract.people import group_of


@dataclass(frozen=True)
class Named:
    """The entities the turn wrote, the user's own (when a fact is about them), and the
    ``distinct_from`` handles dropped."""

    entities: list[EntityResult]
    self_id: UUID | None
    notes: list[Notice]


async def write_entities(conn: Connection, plan: TurnPlan) -> Named:
    """The plan's entities and the user's own entity, written."""
    writes, notes = await distinct_writes(conn, plan)
    entities = await _upsert(conn, plan, writes)
    if plan.renames:
        notes += await _renamed(conn, plan)
    return Named(entities, await _self(conn, plan), notes)


async def _renamed(conn: Connection, plan: TurnPlan) -> list[Notice]:
    """The names the person corrected, written (:data:`.sql.RENAME`), each with a notice."""
    notes = []
    for r in plan.renames:
        old, new = next(
            ((o, n) for o, n in zip(r.old.split(), r.new.split(), strict=False) if o != n),
            (r.old, r.new),
        )
        await conn.execute(
            sql.RENAME, plan.turn.req.user_id, r.entity_ref, r.new, r.old, plan.turn.now,
            old, new,
        )  # fmt: skip
        notes.append(
            Notice(
                code="entity_renamed",
                detail=f"{r.old!r} is {r.new!r} now: the person corrected the name "
                f"({r.old!r} kept as an alias)",
            )
        )
    return notes


async def distinct_writes(
    conn: Connection, plan: TurnPlan
) -> tuple[list[EntityWrite], list[Notice]]:
    """The entity writes, each ``distinct_from`` resolved to the user's entity (which gets an
    alias of its relation's group, "family Marta", when it has none); a handle that names
    none of this user's entities is dropped, with a warning naming it in a model's plan (the
    turn is never refused for it)."""
    resolved, user = plan.resolved, plan.turn.req.user_id
    writes, notes = list(resolved.writes), []
    for index, (position, handle) in resolved.distinct.items():
        namesake = await conn.fetchrow(sql.DISTINCT, user, handle)
        if namesake is not None:
            writes[index] = replace(writes[index], distinct_from=namesake["entity_id"])
            group = next((g for g in map(group_of, namesake["roles"]) if g), None)
            if group and not namesake["has_alias"]:  # "family Marta", for the question to name
                alias = f"{group} {namesake['name']}"
                await conn.execute(sql.ALIAS, user, namesake["entity_id"], alias, plan.fact_source)
        elif plan.plan_source in ("request", "answer"):
            path = PLAN_PATHS.get(plan.plan_source, "plan")
            notes.append(
                Notice(
                    code="plan_field_dropped",
                    detail=f"{path}.entities[{position}].distinct_from: "
                    f"{handle!r} is none of this user's entities",
                )
            )
    return writes, notes


async def _upsert(
    conn: Connection, plan: TurnPlan, writes: list[EntityWrite]
) -> list[EntityResult]:
    """The plan's entities, written (none: no round trip)."""
    if not writes:
        return []
    req = plan.turn.req
    return await upsert_entities(
        conn,
        req.user_id,
        writes,
        agent_id=req.agent_id,
        now=plan.turn.now,
        source=plan.fact_source,
        lock=False,
    )


async def _self(conn: Connection, plan: TurnPlan) -> UUID | None:
    """The user's own entity, when a fact is about them; the names they go by, stored."""
    resolved, user = plan.resolved, plan.turn.req.user_id
    if not (resolved.self_aliases or any(SELF in (s, o) for _, s, o in resolved.facts)):
        return None
    self_id = await self_entity_id(conn, user)
    if names := resolved.self_aliases:
        await conn.execute(
            sql.SELF_ALIASES, user, self_id, plan.fact_source, names, names[0], plan.turn.now
        )
    return self_id
