"""A conversation through the HTTP chain as n8n calls it: commit what the person tells, and ask
with pulse → hydrate → retrieve → envelope and the bodies of ``n8n-workflows/fast-brain.json``."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from litestar import Litestar

from services.core.app import create_app
from services.core.deps import Clients
from services.nodes import NODE_NAMES, node_spec

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ROUTES = {
    "pulse-decay": "pulse",
    "graph-hydrator": "hydrate",
    "rag-gate": "retrieve",
    "envelope-validator": "envelope",
    "reflection-writer": "reflect",
    "memory-upserter": "memory",
}
TOLD = ["I live in Lisbon.", "I work at Acme as a nurse.", "My sister Marta lives in Madrid."]
DEANNAS_OWN = "User follows deanna's couch-to-5k plan"
LATER = T0 + timedelta(days=2)


@asynccontextmanager
async def six_nodes(
    resources: Clients,
    app_client: Callable[[Litestar], AbstractAsyncContextManager[httpx.AsyncClient]],
) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    """A client per node, by the short name of its route (``pulse``, ``retrieve``…), over one
    set of clients, as ``twin up`` serves them."""
    async with AsyncExitStack() as stack:
        yield {
            ROUTES[node]: await stack.enter_async_context(
                app_client(create_app(node_spec(node), resources.settings, resources))
            )
            for node in NODE_NAMES
        }


async def ok(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict:
    answer = await client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def tell(
    nodes, user_id: str, agent: str, chat: str, text: str, at: datetime, plan: dict | None = None
) -> None:
    """One turn as the fast brain commits it: the user's message and the reply."""
    ids = {"user_id": user_id, "agent_id": agent, "chat_id": chat}
    await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": at.isoformat()})
    body: dict[str, Any] = {
        **ids,
        "turn_id": uuid.uuid4().hex,
        "now": at.isoformat(),
        "messages": [{"role": "user", "text": text}, {"role": "assistant", "text": "Got it."}],
    }
    if plan is not None:
        body["plan"] = plan
    await ok(nodes["memory"], "/v1/commit", body)


async def say(nodes, ids: dict[str, str], text: str, minute: int) -> dict[str, Any]:
    """One turn as fast-brain.json runs it with no model plan (the offline judge writes), at
    ``minute`` after :data:`T0`: pulse, then commit; the commit's answer."""
    now = (T0 + timedelta(minutes=minute)).isoformat()
    await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": now})
    return await ok(
        nodes["memory"],
        "/v1/commit",
        {
            **ids,
            "turn_id": uuid.uuid4().hex,
            "now": now,
            "messages": [{"role": "user", "text": text}],
            "answer": json.dumps({"reply": "Okay."}),
        },
    )


async def answer(
    nodes, ids: dict[str, str], text: str, minute: int, reply: str, plan: dict[str, Any]
) -> dict[str, Any]:
    """One turn as fast-brain.json runs it with a model, at ``minute`` after :data:`T0`:
    ``/v1/turn``, then — unless the turn asks the flow's question — the model's raw answer
    (``reply`` and ``plan``, written here as a model would) committed; the commit's answer."""
    now, message_id = (T0 + timedelta(minutes=minute)).isoformat(), uuid.uuid4().hex
    one = await ok(
        nodes["retrieve"],
        "/v1/turn",
        {**ids, "message": text, "message_id": message_id, "now": now,
         "persona_prompt": f"You are {ids['agent_id']}."},
    )  # fmt: skip
    said: dict[str, Any] = {"reply": reply, "plan": plan}
    if one["next"] == "question":
        said = {"reply": one["hydrate"]["GRAPH"]["pending_question"]["question"]}
    return await ok(
        nodes["memory"],
        "/v1/commit",
        {**ids, "turn_id": uuid.uuid4().hex, "now": now,
         "messages": [{"role": "user", "text": text, "external_id": message_id}],
         "answer": json.dumps(said),
         "active_entity_ids": (one.get("hydrate") or {}).get("active_entity_ids", [])},
    )  # fmt: skip


async def ask(
    nodes, user_id: str, agent: str, chat: str, text: str, at: datetime
) -> dict[str, Any]:
    """pulse → hydrate → retrieve → envelope, with fast-brain.json's bodies."""
    ids = {"user_id": user_id, "agent_id": agent, "chat_id": chat}
    now = at.isoformat()
    pulse = await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": now})
    session = pulse["session"]
    hydrate = await ok(
        nodes["hydrate"],
        "/v1/hydrate",
        {
            **ids,
            "message": text,
            "active_entity_ids": session["active_entity_ids"],
            "topic_focus": session["scratch"].get("topic_focus"),
            "now": now,
        },
    )
    retrieve = await ok(
        nodes["retrieve"],
        "/v1/retrieve",
        {
            **ids,
            "message": text,
            "entity_ids": hydrate["active_entity_ids"],
            "scratch": session["scratch"],
            "now": now,
        },
    )
    envelope = await ok(
        nodes["envelope"],
        "/v1/envelope",
        {
            **ids,
            "AFFECT": pulse["AFFECT"],
            "GRAPH": hydrate["GRAPH"],
            "EPISODE": retrieve["EPISODE"],
            "KNOWLEDGE": retrieve["KNOWLEDGE"],
            "FACTS": retrieve["FACTS"],
            "ranking": retrieve.get("ranking") or [],
            "persona_prompt": f"You are {agent}.",
            "conversation_summary": session["summary"] or "",
            "recent_turns": session["turns"],
            "user_message": text,
            "now": now,
        },
    )
    return {
        "hydrate": hydrate,
        "retrieve": retrieve,
        "envelope": envelope,
        "system": envelope["messages"][0]["content"],
    }
