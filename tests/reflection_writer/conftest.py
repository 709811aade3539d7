"""Seeding for reflection-writer tests: users, sessions and their message log written with SQL
(memory-upserter writes them in production), entities through the memory store's writer, and
facts and todos with SQL (the curator's tests need duplicates no writer makes)."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from services.core.deps import Clients
from services.core.llm import open_llm
from services.core.memory_store import ensure_user_and_agent, upsert_entity
from services.reflection_writer.app import provide_slow_brain
from services.reflection_writer.brain import SlowBrain

T0 = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)
LLM_URL = "http://llm.test/v1"


@dataclass
class Seeded:
    session_id: str
    user_id: str
    agent_id: str
    chat_id: str
    message_ids: list[str] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    last_ts: datetime | None = None


class Log:
    """Writes what memory-upserter would have written, directly."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def user(self, user_id: str, *, tz: str = "UTC", agent_id: str = "deanna") -> None:
        async with self.pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO users (user_id, timezone) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET timezone = $2",
                user_id,
                tz,
            )
            await conn.execute(
                "INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING", agent_id
            )

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
        """A session whose messages are ``turns`` (role, text), ``step`` apart from ``start``."""
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT timezone FROM users WHERE user_id = $1", user_id)
        if exists is None or tz is not None:
            await self.user(user_id, tz=tz or "UTC", agent_id=agent_id)
        else:
            await self.user(user_id, tz=exists, agent_id=agent_id)
        session_id = str(uuid.uuid4())
        async with self.pool.acquire() as conn:
            await conn.execute(
                """INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at,
                                         last_activity_at, flagged_for_consolidation, ended_at)
                   VALUES ($1::uuid, $2, $3, $4, $5, $5, $6, $5)""",
                session_id,
                user_id,
                agent_id,
                chat_id,
                start,
                flagged,
            )
        seeded = Seeded(session_id, user_id, agent_id, chat_id)
        await self.append(seeded, turns, start=start, step=step)
        return seeded

    async def append(
        self,
        seeded: Seeded,
        turns: Sequence[tuple[str, str]],
        *,
        start: datetime,
        step: timedelta = timedelta(minutes=1),
    ) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            ts = start
            for role, text in turns:
                turn = len(seeded.seqs)
                row = await conn.fetchrow(
                    """INSERT INTO messages (user_id, agent_id, chat_id, session_id, turn_id,
                                             position, role, text, ts)
                       VALUES ($1, $2, $3, $4::uuid, $5, $6, $7, $8, $9)
                       RETURNING message_id::text, seq""",
                    seeded.user_id,
                    seeded.agent_id,
                    seeded.chat_id,
                    seeded.session_id,
                    f"{seeded.session_id[:8]}-{turn // 2}",
                    turn % 2,
                    role,
                    text,
                    ts,
                )
                seeded.message_ids.append(row[0])
                seeded.seqs.append(row[1])
                seeded.last_ts = ts
                ts += step
            await conn.execute(
                """UPDATE sessions SET last_message_seq = $2, last_activity_at = $3,
                                       turn_count = $4, ended_at = GREATEST(ended_at, $3)
                    WHERE session_id = $1::uuid""",
                seeded.session_id,
                seeded.seqs[-1],
                seeded.last_ts,
                len(seeded.seqs),
            )

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
        async with self.pool.acquire() as conn:
            return await conn.fetchval(
                """INSERT INTO todos (user_id, agent_id, kind, text, chat_id, session_id,
                                      source_message_id, source_snippet)
                   VALUES ($1, $2, $3, $4, $5, $6::uuid, $7::uuid, $4) RETURNING todo_id::text""",
                seeded.user_id,
                seeded.agent_id,
                kind,
                text,
                seeded.chat_id,
                seeded.session_id,
                source_message_id,
            )

    async def fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        async with self.pool.acquire() as conn:
            return await conn.fetch(sql, *args)

    async def val(self, sql: str, *args: object) -> object:
        async with self.pool.acquire() as conn:
            return await conn.fetchval(sql, *args)


@pytest.fixture
def log(resources: Clients) -> Log:
    return Log(resources.db)


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
