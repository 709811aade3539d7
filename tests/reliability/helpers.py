"""Bodies and checks the reliability tests share."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from services.core.deps import Clients

T0 = datetime(2026, 2, 2, 10, 0, tzinfo=UTC)
AGENT = "deanna"
CHAT = "tg:rel"
_turns = itertools.count(1)

PLAN = {
    "entities": [{"name": "Marta", "category": "Person"}],
    "facts": [
        {
            "memory_type": "PEOPLE",
            "subject": "user",
            "predicate": "HAS_SISTER",
            "object": "Marta",
            "fact_type": "relationship",
            "text": "Marta is the user's sister",
        }
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
}


def commit_body(
    user_id: str,
    text: str = "My sister Marta visits. I'll call her tomorrow.",
    *,
    turn_id: str | None = None,
    plan: dict | None = None,
    at: datetime = T0,
    reply: str = "Noted.",
    chat_id: str = CHAT,
) -> dict:
    body: dict[str, Any] = {
        "user_id": user_id,
        "agent_id": AGENT,
        "chat_id": chat_id,
        "turn_id": turn_id or f"rt{next(_turns)}",
        "messages": [{"role": "user", "text": text}, {"role": "assistant", "text": reply}],
        "now": at.isoformat(),
    }
    if plan is not None:
        body["plan"] = plan
    return body


def later(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def pulse_body(user_id: str, message: str = "hi there") -> dict:
    return {"user_id": user_id, "agent_id": AGENT, "chat_id": CHAT, "message": message}


def hydrate_body(user_id: str, message: str = "How is Marta?") -> dict:
    return {"user_id": user_id, "agent_id": AGENT, "chat_id": CHAT, "message": message}


def retrieve_body(user_id: str, message: str = "remember what Marta said last time?") -> dict:
    return {
        "user_id": user_id,
        "agent_id": AGENT,
        "chat_id": CHAT,
        "message": message,
        "force": "open",
        "now": later(60).isoformat(),
    }


def assert_unavailable(response: httpx.Response, dependency: str) -> dict:
    """503 problem+json naming the dependency, with a Retry-After the caller can obey."""
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert int(response.headers["retry-after"]) > 0
    problem = response.json()
    assert problem["status"] == 503
    assert problem["dependency"] == dependency, problem
    return problem


async def rows(res: Clients, sql: str, *args: Any) -> list[dict]:
    async with res.db.acquire() as conn:
        return [dict(r) for r in await conn.fetch(sql, *args)]


async def value(res: Clients, sql: str, *args: Any) -> Any:
    async with res.db.acquire() as conn:
        return await conn.fetchval(sql, *args)
