"""Seeding for reflection-writer tests, through the product's own writers: the person and
their time zone as ``POST /v1/profile`` seeds them, each session's messages as one
``/v1/commit`` logs them (memory-upserter's :func:`commit_turn`: the messages carry their own
times, and an empty plan makes nothing of them), todos by the commit's capture step, entities
by the memory store's writer. Facts are written with SQL: the curator's tests need keyless
duplicates that no writer makes any more (rows older writers left)."""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import asyncpg
import msgspec
import pytest

from contracts.memory import CommitRequest
from contracts.memory_admin import ProfileRequest
from services.core.deps import Clients
from services.core.llm import open_llm
from services.core.memory_store import ensure_user_and_agent, upsert_entity
from services.memory_upserter.commit.capture import Where, capture
from services.memory_upserter.commit.turn import TodoRow
from services.memory_upserter.commit.write import commit_turn
from services.memory_upserter.person.profile import seed_profile
from services.memory_upserter.stores import MemoryStores
from services.reflection_writer.app import provide_slow_brain
from services.reflection_writer.brain import SlowBrain

T0 = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)
LLM_URL = "http://llm.test/v1"
_TURNS = itertools.count(1)


@dataclass
class Seeded:
    session_id: str  # the session the last messages went to
    user_id: str
    agent_id: str
    chat_id: str
    message_ids: list[str] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    last_ts: datetime | None = None


class Log:
    """Writes what a conversation leaves, the way the product writes it (module docstring)."""

    def __init__(self, clients: Clients) -> None:
        self.clients = clients
        self.pool = clients.db

    async def user(self, user_id: str, *, tz: str = "UTC", agent_id: str = "deanna") -> None:
        """The person, with their time zone, as ``POST /v1/profile`` seeds it."""
        c = self.clients
        req = ProfileRequest(user_id=user_id, agent_id=agent_id, timezone=tz)
        await seed_profile(c.db, c.vectors, c.embedder, req)

    async def session(
        self,
        user_id: str,
        turns: Sequence[tuple[str, str]],
        *,
        agent_id: str = "deanna",
        chat_id: str = "tg:1",
        start: datetime = T0,
        step: timedelta = timedelta(minutes=1),
        flagged: bool = False,
        tz: str | None = None,
    ) -> Seeded:
        """A session whose messages are ``turns`` (role, text), ``step`` apart from ``start``;
        ``flagged``: flagged for consolidation (a state no writer sets yet: an UPDATE)."""
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT timezone FROM users WHERE user_id = $1", user_id)
        if exists is None or tz is not None:
            await self.user(user_id, tz=tz or "UTC", agent_id=agent_id)
        seeded = Seeded("", user_id, agent_id, chat_id)
        await self.append(seeded, turns, start=start, step=step)
        if flagged:
            async with self.pool.acquire() as conn:
                await conn.execute(
                    "UPDATE sessions SET flagged_for_consolidation = true"
                    " WHERE session_id = $1::uuid",
                    seeded.session_id,
                )
        return seeded

    async def append(
        self,
        seeded: Seeded,
        turns: Sequence[tuple[str, str]],
        *,
        start: datetime,
        step: timedelta = timedelta(minutes=1),
    ) -> None:
        """``turns`` logged in the chat as one commit, ``step`` apart from ``start`` (after the
        session's idle time, in the next session, as the product does)."""
        times = [start + step * i for i in range(len(turns))]
        body = {
            "user_id": seeded.user_id,
            "agent_id": seeded.agent_id,
            "chat_id": seeded.chat_id,
            "turn_id": f"seed-{next(_TURNS)}",
            "now": times[-1].isoformat(),
            "messages": [
                {"role": role, "text": text, "ts": ts.isoformat()}
                for (role, text), ts in zip(turns, times, strict=True)
            ],
            "plan": {},
        }
        c = self.clients
        stores = MemoryStores(c.db, c.vectors, c.embedder, c.memory)
        req = msgspec.convert(body, CommitRequest)
        answer, _ = await commit_turn(stores, None, c.settings, c.background, req, request_id=None)
        await c.background.drain()
        async with self.pool.acquire() as conn:
            seqs = await conn.fetch(
                "SELECT message_id::text, seq FROM messages"
                " WHERE user_id = $1 AND message_id = ANY($2::uuid[]) ORDER BY seq",
                seeded.user_id,
                answer.message_ids,
            )
        seeded.session_id = answer.session_id
        seeded.message_ids += [r["message_id"] for r in seqs]
        seeded.seqs += [r["seq"] for r in seqs]
        seeded.last_ts = times[-1]

    async def entity(
        self, user_id: str, name: str, *, category: str = "Person", aliases: Sequence[str] = ()
    ) -> str:
        """Through the product's writer (:func:`upsert_entity`), as a commit would."""
        async with self.pool.acquire() as conn, conn.transaction():
            await ensure_user_and_agent(conn, user_id, "deanna")
            entity_id, _ = await upsert_entity(
                conn, user_id, name=name, category=category, aliases=aliases, now=T0
            )
        return str(entity_id)

    async def fact(
        self,
        user_id: str,
        subject_id: str,
        text: str,
        *,
        predicate: str = "NOTE",
        memory_type: str = "PEOPLE",
        value: object = None,
        confidence: float = 0.8,
        pinned: bool = False,
        importance: int = 1,
        created_at: datetime = T0,
        source: str = "llm_plan",
    ) -> str:
        async with self.pool.acquire() as conn:
            return await conn.fetchval(
                """INSERT INTO relations (user_id, subject_id, predicate, object_value,
                                          memory_type, text, confidence, pinned, importance,
                                          source, created_at, updated_at)
                   VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
                   RETURNING rel_id::text""",
                user_id,
                subject_id,
                predicate,
                value if value is not None else text,
                memory_type,
                text,
                confidence,
                pinned,
                3 if pinned else importance,
                source,
                created_at,
            )

    async def todo(
        self,
        seeded: Seeded,
        text: str,
        *,
        kind: str = "COMMITMENT",
        source_message_id: str | None = None,
    ) -> str:
        """A pending todo of the session, by the commit's capture step."""
        source = uuid.UUID(source_message_id) if source_message_id else None
        row = TodoRow(uuid.uuid4(), kind, text, None, text, source)  # type: ignore[arg-type]
        where = Where(
            seeded.user_id,
            seeded.agent_id,
            seeded.chat_id,
            uuid.UUID(seeded.session_id),
            seeded.last_ts or T0,
        )
        async with self.pool.acquire() as conn, conn.transaction():
            (captured,) = await capture(conn, where, [row])
        return str(captured.todo_id)

    async def fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        async with self.pool.acquire() as conn:
            return await conn.fetch(sql, *args)

    async def val(self, sql: str, *args: object) -> object:
        async with self.pool.acquire() as conn:
            return await conn.fetchval(sql, *args)


@pytest.fixture
def log(resources: Clients) -> Log:
    return Log(resources)


def slow_brain(clients: Clients) -> SlowBrain:
    """What the node's provider builds for a consolidation call, from the test's clients."""
    return provide_slow_brain(
        db=clients.db,
        vectors=clients.vectors,
        embedder=clients.embedder,
        llm=clients.llm,
        settings=clients.settings,
    )


def chat(*lines: str) -> list[tuple[str, str]]:
    """Alternating user/assistant turns, starting with the user."""
    return [("user" if i % 2 == 0 else "assistant", text) for i, text in enumerate(lines)]


GYM_SESSION = chat(
    "Morning. I skipped the gym again because work ran late, so I'm pretty stressed.",
    "That sounds like a rough week. Do you want to plan a shorter workout?",
    "Maybe. My sister Marta is visiting on Saturday and I want the flat to be clean.",
    "Got it. Should I add cleaning to your list?",
    "Yes. I'll clean the kitchen tomorrow. Remind me to call Marta on Friday.",
    "Added both. Anything else on your mind?",
    "I always put things off when I'm tired. Family is really important to me.",
    "That makes sense. Rest matters too.",
)


@pytest.fixture
async def with_llm(resources: Clients) -> AsyncIterator[Clients]:
    """The shared clients plus a model endpoint (mock it with respx at ``LLM_URL``)."""
    llm = open_llm(
        base_url=LLM_URL, api_key="sk-test", model="test-model", timeout=5.0, max_retries=0
    )
    yield resources.replace(llm=llm)
    await llm.close()


def completion(content: object) -> dict:
    """An OpenAI chat completion whose message content is ``content`` (JSON-encoded unless a
    string)."""
    text = content if isinstance(content, str) else json.dumps(content)
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
        ],
    }


def model_draft(*, evidence: list[dict], psyche: list[dict] | None = None) -> dict:
    """A well-formed model answer with the given evidence lines."""
    return {
        "reflection": {
            "observation": ["User skipped the gym because work ran late."],
            "action": ["Suggested a shorter workout."],
            "evidence": evidence,
            "unresolved": ["Whether to cancel the dentist."],
            "hypothesis": {
                "label": "hypothesis",
                "text": "Work stress may be crowding out exercise.",
                "confidence": 0.9,
            },
        },
        "summary": {
            "one_liner": "Gym skipped over work; sister Marta visiting Saturday.",
            "what_mattered": ["gym", "work stress", "Marta's visit"],
            "open_loops": ["dentist"],
            "commitments": ["clean the kitchen"],
            "people": ["Marta"],
            "tone": "stressed",
        },
        "psyche": psyche or [],
    }
