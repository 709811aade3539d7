"""Seeding a user's graph through the memory store's writers, and a Postgres-only ``Clients``
for the node."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import asyncpg
import pytest

from services.core.deps import Clients
from services.core.memory_store import (
    EntityWrite,
    FactWrite,
    apply_facts,
    ensure_user_and_agent,
    upsert_entities,
)
from services.core.settings import Settings
from services.graph_hydrator.app import SPEC
from services.memory_upserter.commit.capture import Where, capture
from services.memory_upserter.commit.todos import close
from services.memory_upserter.commit.turn import TodoRow

T0 = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
AGENTS = ("deanna", "anaketa")


class Seeder:
    """One user's graph, written by the product's own writers (``services.core.memory_store``:
    :func:`ensure_user_and_agent`, :func:`upsert_entities`, :func:`apply_facts`), as a commit
    writes it, and todos by the commit's own steps (captured, closed). What no writer sets (a
    state only time or another route reaches: an entity's attributes or its being forgotten,
    a fact or a todo forgotten, a fact last touched long ago) is set after the write, on the
    row it made."""

    def __init__(self, pool: asyncpg.Pool, user_id: str) -> None:
        self.pool = pool
        self.user_id = user_id
        self._named: dict[str, UUID] = {}  # name → the last entity seeded under it

    async def ensure(self) -> Seeder:
        async with self.pool.acquire() as conn:
            for agent in AGENTS:
                await ensure_user_and_agent(conn, self.user_id, agent)
        return self

    async def entity(
        self,
        name: str,
        *,
        category: str = "Person",
        agent_id: str | None = None,
        last_seen: datetime | None = None,
        aliases: Sequence[str] = (),
        attributes: dict[str, Any] | None = None,
        active: bool = True,
        entity_ref: str | None = None,
    ) -> str:
        """A new entity (a second one of a name is another person, as a plan's distinct
        ref makes it)."""
        write = EntityWrite(
            name,
            category,
            tuple(aliases),
            "agent" if agent_id else "global",
            distinct_from=self._named.get(name.casefold()),
        )
        async with self.pool.acquire() as conn, conn.transaction():
            (made,) = await upsert_entities(
                conn, self.user_id, [write], agent_id=agent_id, now=last_seen or T0
            )
            assert made.outcome == "created", (name, made)
            await conn.execute(
                """UPDATE entities SET last_seen = $3, attributes = $4::jsonb,
                          active = $5, forgotten_at = CASE WHEN $5 THEN NULL ELSE now() END,
                          entity_ref = COALESCE($6, entity_ref)
                    WHERE user_id = $1 AND entity_id = $2""",
                self.user_id,
                made.entity_id,
                last_seen,
                attributes or {},
                active,
                entity_ref,
            )
        self._named[name.casefold()] = made.entity_id
        return str(made.entity_id)

    async def fact(
        self,
        subject: str,
        predicate: str,
        obj: str | None = None,
        *,
        value: Any = None,
        text: str | None = None,
        agent_id: str | None = None,
        confidence: float = 1.0,
        importance: int = 1,
        pinned: bool = False,
        source: str = "llm_plan",
        status: str = "ACTIVE",
        memory_type: str = "PEOPLE",
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        updated_at: datetime = T0,
        created_at: datetime = T0,
        message_ids: Sequence[str] = (),
    ) -> str:
        if obj is None and value is None:
            value = text or predicate.lower()
        write = FactWrite(
            subject_entity_id=UUID(subject),
            predicate=predicate,
            text=text or f"{predicate} {value if obj is None else ''}".strip(),
            memory_type=memory_type,
            object_entity_id=UUID(obj) if obj is not None else None,
            value=None if obj is not None else str(value),
            importance=importance,
            pinned=pinned,
            confidence=confidence,
            scope="agent" if agent_id else "global",
            agent_id=agent_id,
            source=source,
            message_ids=tuple(message_ids),
            valid_from=valid_from,
            valid_to=valid_to,
        )
        async with self.pool.acquire() as conn, conn.transaction():
            (made,) = await apply_facts(conn, self.user_id, [write], now=created_at)
            assert made.outcome in ("created", "ended", "superseded_previous"), (predicate, made)
            await conn.execute(
                """UPDATE relations SET status = $3, updated_at = $4,
                          forgotten_at = CASE WHEN $3 = 'FORGOTTEN' THEN now() END
                    WHERE user_id = $1 AND rel_id = $2""",
                self.user_id,
                made.rel_id,
                status,
                updated_at,
            )
        return str(made.rel_id)

    async def todo(
        self,
        kind: str,
        text: str,
        *,
        agent_id: str = "deanna",
        status: str = "PENDING",
        created_at: datetime = T0,
        due_at: datetime | None = None,
        completed_at: datetime | None = None,
        active: bool = True,
    ) -> str:
        """Captured as a commit captures a plan's todo (memory-upserter's :func:`capture`, at
        ``created_at``), closed as a turn closes one (:func:`close`, at ``completed_at``); not
        ``active``: forgotten since (what the forget route sets, set on the row)."""
        row = TodoRow(uuid.uuid4(), kind, text, due_at, None, None)  # type: ignore[arg-type]
        where = Where(self.user_id, agent_id, "tg:1", None, created_at)  # type: ignore[arg-type]
        async with self.pool.acquire() as conn, conn.transaction():
            (captured,) = await capture(conn, where, [row])
            assert captured.created, (text, "restated a pending todo")
            if status != "PENDING":
                closing = {str(captured.todo_id): status}
                await close(conn, self.user_id, closing, completed_at or created_at)  # type: ignore[arg-type]
            if not active:
                await conn.execute(
                    "UPDATE todos SET active = false WHERE todo_id = $1", captured.todo_id
                )
        return str(captured.todo_id)


@pytest.fixture(scope="session")
async def pg_clients(settings: Settings) -> AsyncIterator[Clients]:
    """Only what graph-hydrator's handler takes (Postgres), opened once for its tests."""
    res = await Clients.open(settings, SPEC.stores)
    yield res
    await res.close()


@pytest.fixture
async def seed(pg_clients: Clients, user_id: str) -> Seeder:
    return await Seeder(pg_clients.db, user_id).ensure()


@pytest.fixture
def seeder_for(pg_clients: Clients):
    """Seed a second user in the same test (isolation checks)."""

    async def make(other_user: str) -> Seeder:
        return await Seeder(pg_clients.db, other_user).ensure()

    return make
