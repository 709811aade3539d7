"""Tenant isolation, property-based: no read path ever shows, and no forget ever touches, another
user's memory — nor another agent's agent-scoped memory.

hypothesis draws two people who share a name for someone ("Marta", "márta", "Aunt Rosa"…),
what each says about them, and whether each fact is global or one agent's own. Everything is
written through the real nodes (commit with a plan, knowledge for one user, consolidation into
episodes), then every read path is asked as the other person, and as the same person through
the other agent: hydrate, retrieve (gate forced open), envelope, day log, and forget (which must
leave the other person's rows, vectors and Redis keys as they were).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.core.deps import Clients
from tests.chain.conversation import six_nodes

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
AGENTS = ("deanna", "anaketa")

names = st.sampled_from(["Marta", "márta", "MARTA", "Aunt Rosa", "Tom", "Zoë"])
scopes = st.sampled_from(["global", "agent"])


@dataclass
class Person:
    user_id: str
    secret: str  # a word only this person's memory holds
    scope: str  # of the fact about the shared name

    def fact_text(self, name: str) -> str:
        return f"{name} keeps the {self.secret} notebook"


@pytest.fixture(scope="module")
async def nodes(resources: Clients, app_client) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with six_nodes(resources, app_client) as clients:
        yield clients


async def _ok(client: httpx.AsyncClient, method: str, path: str, **kwargs) -> dict:
    answer = await client.request(method, path, **kwargs)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def _remember(nodes, person: Person, name: str, agent: str, at: datetime) -> None:
    plan = {
        "entities": [{"name": name, "category": "Person"}],
        "facts": [
            {
                "memory_type": "PEOPLE",
                "subject": name,
                "predicate": "KEEPS",
                "value": f"the {person.secret} notebook",
                "scope": person.scope,
                "text": person.fact_text(name),
            }
        ],
        "todos": [{"kind": "COMMITMENT", "text": f"return the {person.secret} notebook"}],
    }
    await _ok(
        nodes["memory"],
        "POST",
        "/v1/commit",
        json={
            "user_id": person.user_id,
            "agent_id": agent,
            "chat_id": f"chat-{person.user_id}",
            "turn_id": uuid.uuid4().hex,
            "now": at.isoformat(),
            "plan": plan,
            "messages": [
                {"role": "user", "text": f"{name} has my {person.secret} notebook"},
                {"role": "assistant", "text": "Noted."},
            ],
        },
    )
    await _ok(
        nodes["memory"],
        "POST",
        "/v1/knowledge",
        json={
            "agent_id": agent,
            "user_id": person.user_id,
            "doc_id": f"notes-{person.secret}",
            "text": f"# Notes\n\nThe {person.secret} notebook is blue.",
        },
    )


async def _everything_seen(nodes, user_id: str, agent: str, name: str, at: datetime) -> str:
    """Every read path's answer for this user and agent, as one text."""
    ids = {"user_id": user_id, "agent_id": agent, "chat_id": f"chat-{user_id}"}
    hydrate = await _ok(
        nodes["hydrate"],
        "POST",
        "/v1/hydrate",
        json={**ids, "message": f"how is {name}?", "now": at.isoformat()},
    )
    retrieve = await _ok(
        nodes["retrieve"],
        "POST",
        "/v1/retrieve",
        json={
            **ids,
            "message": f"{name} notebook",
            "force": "open",
            "now": at.isoformat(),
            "entity_ids": hydrate["active_entity_ids"],
        },
    )
    pulse = await _ok(
        nodes["pulse"],
        "POST",
        "/v1/pulse",
        json={**ids, "message": f"how is {name}?", "now": at.isoformat()},
    )
    envelope = await _ok(
        nodes["envelope"],
        "POST",
        "/v1/envelope",
        json={
            **ids,
            "AFFECT": pulse["AFFECT"],
            "GRAPH": hydrate["GRAPH"],
            "EPISODE": retrieve["EPISODE"],
            "KNOWLEDGE": retrieve["KNOWLEDGE"],
            "FACTS": retrieve.get("FACTS"),
            "recent_turns": pulse["session"]["turns"],
            "user_message": f"how is {name}?",
            "now": at.isoformat(),
        },
    )
    day = await _ok(
        nodes["reflect"],
        "GET",
        "/v1/day-log",
        params={"user_id": user_id, "agent_id": agent, "day": T0.date().isoformat(), "tz": "UTC"},
    )
    return json.dumps([hydrate, retrieve, pulse, envelope, day], ensure_ascii=False)


async def _footprint(resources: Clients, user_id: str) -> dict[str, object]:
    """What the stores hold for one user: row counts, vector points, Redis keys."""
    async with resources.db.acquire() as conn:
        counts = {
            table: await conn.fetchval(
                f"SELECT count(*) FROM {table} WHERE user_id = $1 AND "  # noqa: S608
                + ("status = 'ACTIVE'" if table == "relations" else "active"),
                user_id,
            )
            for table in ("entities", "relations", "messages", "todos", "episodes")
        }
    counts["points"] = {
        collection: len(
            await resources.vectors.search(
                collection, user_id=user_id, text="notebook", limit=50, agent_id=AGENTS[0]
            )
        )
        for collection in ("facts", "episodes")
    }
    keys = [k async for k in resources.redis.scan_iter(match=f"*:{quote(user_id, safe='')}:*")]
    counts["redis"] = sorted(k.decode() for k in keys)
    return counts


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(name=names, other_name=names, scope_a=scopes, scope_b=scopes)
async def test_no_read_path_shows_another_users_or_agents_memory(
    nodes, resources: Clients, name: str, other_name: str, scope_a: str, scope_b: str
) -> None:
    run = uuid.uuid4().hex[:8]
    ana = Person(f"ana-{run}", f"alpha{run}", scope_a)
    bo = Person(f"bo-{run}", f"bravo{run}", scope_b)
    await _remember(nodes, ana, name, AGENTS[0], T0)
    await _remember(nodes, bo, other_name, AGENTS[0], T0)
    for person in (ana, bo):
        await _ok(
            nodes["reflect"],
            "POST",
            "/v1/consolidate",
            json={"user_id": person.user_id, "now": (T0 + timedelta(hours=2)).isoformat()},
        )
    later = T0 + timedelta(hours=3)

    seen_by_bo = await _everything_seen(nodes, bo.user_id, AGENTS[0], name, later)
    assert bo.secret in seen_by_bo  # the reads work: Bo sees his own memory
    assert ana.secret not in seen_by_bo and ana.user_id not in seen_by_bo

    seen_by_ana = await _everything_seen(nodes, ana.user_id, AGENTS[0], other_name, later)
    assert ana.secret in seen_by_ana and bo.secret not in seen_by_ana

    # Ana through the other agent: her global memory yes, the first agent's own no
    other_agent = await _everything_seen(nodes, ana.user_id, AGENTS[1], name, later)
    assert bo.secret not in other_agent
    fact = ana.fact_text(name)
    assert (fact in other_agent) == (scope_a == "global"), (scope_a, fact)
    assert f"return the {ana.secret} notebook" not in other_agent  # todos are the agent's own

    # Bo forgets the shared name, hard: Ana's memory is untouched, everywhere
    before = await _footprint(resources, ana.user_id)
    forgot = await _ok(
        nodes["memory"],
        "POST",
        "/v1/forget",
        json={
            "user_id": bo.user_id,
            "scope": "global",
            "hard": True,
            "targets": [{"entity": name}, {"text": ana.secret}],
        },
    )
    assert all(i not in json.dumps(before) for i in forgot["entity_ids"])
    assert await _footprint(resources, ana.user_id) == before
    assert ana.secret in await _everything_seen(nodes, ana.user_id, AGENTS[0], name, later)
