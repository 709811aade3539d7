"""The memory store's tests share one pool, with the person and the persona already known."""

from __future__ import annotations

import asyncpg
import pytest

from services.core.deps import Clients
from services.core.memory_store import ensure_user_and_agent


@pytest.fixture
async def pool(resources: Clients, user_id: str) -> asyncpg.Pool:
    async with resources.db.acquire() as conn:
        await ensure_user_and_agent(conn, user_id, "deanna")
    return resources.db
