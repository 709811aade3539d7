"""memory-upserter through its app, against the run's real Postgres, Redis and Qdrant Edge."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.app import SPEC

T0 = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday
AGENT = "deanna"
_turns = itertools.count(1)


@pytest.fixture
async def client(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(create_app(SPEC, settings, resources)) as client:
        yield client


def turn(
    user_id: str,
    user_text: str | None = "hello",
    *,
    reply: str | None = "ok",
    plan: dict | None = None,
    turn_id: str | None = None,
    at: datetime = T0,
    chat_id: str = "tg:1",
    agent_id: str = AGENT,
    **extra: Any,
) -> dict:
    messages = []
    if user_text is not None:
        messages.append({"role": "user", "text": user_text})
    if reply is not None:
        messages.append({"role": "assistant", "text": reply})
    body = {
        "user_id": user_id,
        "agent_id": agent_id,
        "chat_id": chat_id,
        "turn_id": turn_id or f"t{next(_turns)}",
        "messages": messages,
        "now": at.isoformat(),
        **extra,
    }
    if plan is not None:
        body["plan"] = plan
    return body


def fact(
    predicate: str,
    text: str,
    *,
    subject: str = "user",
    obj: str | None = None,
    value: str | None = None,
    memory_type: str = "PROFILE",
    **extra: Any,
) -> dict:
    out = {
        "memory_type": memory_type,
        "subject": subject,
        "predicate": predicate,
        "text": text,
        **extra,
    }
    if obj is not None:
        out["object"] = obj
    if value is not None:
        out["value"] = value
    return out


async def commit(client: httpx.AsyncClient, body: dict, status: int = 200) -> dict:
    response = await client.post("/v1/commit", json=body)
    assert response.status_code == status, response.text
    return response.json()


async def rows(resources: Clients, sql: str, *args: Any) -> list[dict]:
    async with resources.db.acquire() as conn:
        return [dict(r) for r in await conn.fetch(sql, *args)]


def later(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)
