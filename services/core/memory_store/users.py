"""Rows every write needs first: the user, the agent, the user's own entity; the user lock."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from services.core.memory_store.keys import SELF_REF, user_lock_key

if TYPE_CHECKING:
    from services.core.deps import Connection


async def lock_user(conn: Connection, user_id: str) -> None:
    """Hold the user's graph-writer lock until this transaction ends."""
    await conn.execute("SELECT pg_advisory_xact_lock($1::bigint)", user_lock_key(user_id))


async def ensure_user_and_agent(conn: Connection, user_id: str, agent_id: str) -> None:
    await conn.execute(
        """WITH u AS (INSERT INTO users (user_id) VALUES ($1) ON CONFLICT DO NOTHING)
           INSERT INTO agents (agent_id) VALUES ($2) ON CONFLICT DO NOTHING""",
        user_id,
        agent_id,
    )


_SELF = f"""
WITH ins AS (
    INSERT INTO entities (user_id, scope, name, category, entity_ref)
    VALUES ($1, 'global', 'me', 'Person', '{SELF_REF}')
    ON CONFLICT (user_id, entity_ref) WHERE entity_ref IS NOT NULL DO NOTHING
    RETURNING entity_id)
SELECT entity_id FROM ins
UNION ALL
SELECT entity_id FROM entities WHERE user_id = $1 AND entity_ref = '{SELF_REF}'
LIMIT 1
"""


async def self_entity_id(conn: Connection, user_id: str) -> UUID:
    """The user's own entity (Person 'me', ref ``self:user``), created once; the users row must
    exist. A concurrent creator makes our statement's snapshot miss the row: ask again."""
    for _ in range(3):
        found: UUID | None = await conn.fetchval(_SELF, user_id)
        if found is not None:
            return found
    raise RuntimeError("the self entity could not be created or found")
