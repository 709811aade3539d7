"""Seeding a user's graph with plain SQL, and a Postgres-only ``Clients`` for the node."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from services.core.deps import Clients
from services.core.settings import Settings
from services.graph_hydrator.app import SPEC

T0 = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
AGENTS = ("deanna", "anaketa")


class Seeder:
    """Inserts one user's rows: ``users``/``agents`` first (FKs), then whatever a test needs."""

    def __init__(self, pool: asyncpg.Pool, user_id: str) -> None:
        self.pool = pool
        self.user_id = user_id

    async def ensure(self) -> Seeder:
        async with self.pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO users (user_id) VALUES ($1) ON CONFLICT DO NOTHING", self.user_id
            )
            await conn.executemany(
                "INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING",
                [(a,) for a in AGENTS],
            )
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
        entity_id = str(uuid.uuid4())
        async with self.pool.acquire() as conn:
            await conn.execute(
                """INSERT INTO entities (entity_id, user_id, scope, agent_id, name, category,
                                         last_seen, attributes, active, forgotten_at, entity_ref)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9,
                           CASE WHEN $9 THEN NULL ELSE now() END, $10)""",
                entity_id,
                self.user_id,
                "agent" if agent_id else "global",
                agent_id,
                name,
                category,
                last_seen,
                attributes or {},
                active,
                entity_ref,
            )
            await conn.executemany(
                "INSERT INTO entity_aliases (user_id, entity_id, alias) VALUES ($1, $2, $3)",
                [(self.user_id, entity_id, alias) for alias in aliases],
            )
        return entity_id

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
        rel_id = str(uuid.uuid4())
        if obj is None and value is None:
            value = text or predicate.lower()
        async with self.pool.acquire() as conn:
            await conn.execute(
                """INSERT INTO relations (rel_id, user_id, scope, agent_id, subject_id, predicate,
                       object_id, object_value, confidence, memory_type, text, importance, pinned,
                       source, status, valid_from, valid_to, provenance_message_ids,
                       forgotten_at, created_at, updated_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14,
                           $15, $16, $17, $18::jsonb,
                           CASE WHEN $15 = 'FORGOTTEN' THEN now() END, $19, $20)""",
                rel_id,
                self.user_id,
                "agent" if agent_id else "global",
                agent_id,
                subject,
                predicate,
                obj,
                value if obj is None else None,
                confidence,
                memory_type,
                text or f"{predicate} {value if obj is None else ''}".strip(),
                importance,
                pinned,
                source,
                status,
                valid_from,
                valid_to,
                list(message_ids),
                created_at,
                updated_at,
            )
        return rel_id

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
        todo_id = str(uuid.uuid4())
        async with self.pool.acquire() as conn:
            await conn.execute(
                """INSERT INTO todos (todo_id, user_id, agent_id, kind, text, status, due_at,
                                      completed_at, active, created_at, updated_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)""",
                todo_id,
                self.user_id,
                agent_id,
                kind,
                text,
                status,
                due_at,
                completed_at,
                active,
                created_at,
            )
        return todo_id


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
