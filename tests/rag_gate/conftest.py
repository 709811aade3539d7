"""Writing a user's memory the way the other nodes lay it out: Postgres rows (the truth), then
the vectors that point at them (``facts``, ``episodes``, ``knowledge`` collections). The user,
agents, entities and facts go through the memory store's writers (a fact's state no writer
sets, forgotten or closed, and when it was last touched, set on the row the writer made);
episodes through reflection-writer's writer. Sessions and their messages are written with SQL:
a commit would index the turns, and these tests need sessions whose turns no index holds;
knowledge chunks too (ingesting replaces a document's chunks, and the tests add theirs one at
a time)."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest

from contracts.retrieve import RetrieveRequest
from services.core.deps import Clients
from services.core.memory_store import (
    SELF_REF,
    EntityWrite,
    FactWrite,
    apply_facts,
    ensure_user_and_agent,
    self_entity_id,
    upsert_entities,
)
from services.core.memory_store.episode_index import (
    EpisodeRow,
    embedding_text,
    mark_episodes_indexed,
    vector_payload,
)
from services.core.vectors import VectorPoint
from services.core.vectors.port import SHARED_OWNER
from services.reflection_writer.store import insert_episode

T0 = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
_SEQ = itertools.count(1)  # episodes.first_message_seq must be unique per user


def epoch(ts: datetime) -> int:
    return int(ts.timestamp())


class Memory:
    """One user's memory with one agent (``agent``) and another one (``other_agent``); agent
    ids are unique per test, so agent-wide knowledge never leaks between tests."""

    def __init__(self, res: Clients, user_id: str, suffix: str) -> None:
        self.res = res
        self.db = res.db
        self.user_id = user_id
        self.agent = f"deanna-{suffix}"
        self.other_agent = f"anaketa-{suffix}"

    async def ensure(self) -> Memory:
        async with self.db.acquire() as conn:
            for agent in (self.agent, self.other_agent):
                await ensure_user_and_agent(conn, self.user_id, agent)
        return self

    async def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.res.embedder.embed(list(texts))

    async def entity(
        self,
        name: str,
        *,
        category: str = "Person",
        ref: str | None = None,
        aliases: Sequence[str] = (),
    ) -> str:
        """Through the memory store's writers, as a commit makes it: the user's own entity
        for ``self:user``, else a global entity (``ref``: the handle it is known by)."""
        async with self.db.acquire() as conn, conn.transaction():
            if ref == SELF_REF:
                return str(await self_entity_id(conn, self.user_id))
            (written,) = await upsert_entities(
                conn, self.user_id, [EntityWrite(name, category, aliases, ref=ref)], now=T0
            )
        assert ref is None or written.entity_ref == ref, (ref, written.entity_ref)
        return str(written.entity_id)

    async def fact(
        self,
        subject: str,
        text: str,
        *,
        obj: str | None = None,
        predicate: str = "FACT",
        memory_type: str = "PEOPLE",
        importance: int = 1,
        pinned: bool = False,
        status: str = "ACTIVE",
        agent_id: str | None = None,
        valid_to: datetime | None = None,
        updated_at: datetime = T0,
        created_at: datetime | None = None,
        message_ids: Sequence[str] = (),
        index: bool = True,
        stale_index: bool = False,
        confidence: float = 1.0,
    ) -> str:
        """A fact row and its vector; ``stale_index`` indexes a closed fact as still active
        (an index the upserter has not caught up with)."""
        scope = "agent" if agent_id else "global"
        write = FactWrite(
            subject_entity_id=uuid.UUID(subject),
            predicate=predicate,
            text=text,
            memory_type=memory_type,
            object_entity_id=uuid.UUID(obj) if obj else None,
            importance=importance,
            pinned=pinned,
            confidence=confidence,
            scope=scope,
            agent_id=agent_id,
            message_ids=tuple(message_ids),
            valid_to=valid_to,
        )
        async with self.db.acquire() as conn, conn.transaction():
            (made,) = await apply_facts(conn, self.user_id, [write], now=created_at or updated_at)
            assert made.outcome in ("created", "ended", "superseded_previous"), (text, made)
            rel_id = str(made.rel_id)
            # what no writer sets: a state another route reaches (forgotten, closed), the
            # time it was last touched
            await conn.execute(
                """UPDATE relations SET status = $3, updated_at = $4, created_at = $5,
                          forgotten_at = CASE WHEN $3 = 'FORGOTTEN' THEN now() END
                    WHERE user_id = $1 AND rel_id = $2""",
                self.user_id,
                made.rel_id,
                status,
                updated_at,
                created_at or updated_at,
            )
        if index:
            (dense,) = await self._embed([text])
            await self.res.vectors.upsert(
                "facts",
                [
                    VectorPoint(
                        rel_id,
                        dense,
                        text,
                        {
                            "user_id": self.user_id,
                            "agent_id": agent_id,
                            "scope": scope,
                            "entity_ids": [e for e in (subject, obj) if e],
                            "active": status == "ACTIVE" or stale_index,
                            "memory_type": memory_type,
                            "importance": importance,
                            "pinned": pinned,
                            "ts": epoch(updated_at),
                            "message_ids": list(message_ids),
                        },
                    )
                ],
            )
        return rel_id

    async def episode(
        self,
        one_liner: str,
        reflection: str,
        *,
        ts: datetime = T0,
        agent_id: str | None = None,
        entity_ids: Sequence[str] = (),
        what_mattered: Sequence[str] = (),
        active: bool = True,
        message_ids: Sequence[str] = (),
        session_id: str | None = None,
        cited: Sequence[str] = (),
        index: bool = True,
    ) -> str:
        """Through reflection-writer's writer of an episode and its vector (``index``); an
        inactive one is then forgotten (:meth:`forget_episode`, a state the forget route
        reaches)."""
        seq = next(_SEQ) * 10
        row = EpisodeRow(
            episode_id=str(uuid.uuid4()),
            user_id=self.user_id,
            agent_id=agent_id or self.agent,
            chat_id=None,  # type: ignore[arg-type]  # a test's episode comes from no chat
            session_id=session_id,  # type: ignore[arg-type]
            ts=ts,
            day=ts.date(),
            importance=0.5,
            reflection=reflection,
            reflection_json={"evidence": [{"text": "quoted", "message_id": m} for m in cited]},
            summary={"one_liner": one_liner, "what_mattered": list(what_mattered)},
            entity_ids=list(entity_ids),
            tags=[],
            first_message_seq=seq,
            last_message_seq=seq + 5,
            provenance={"message_ids": list(message_ids)},
            previous_episode_id=None,
            text=embedding_text(one_liner, reflection),
        )
        async with self.db.acquire() as conn:
            assert await insert_episode(conn, row, ts)
        if index:
            (dense,) = await self._embed([row.text])
            point = VectorPoint(row.episode_id, dense, row.text, vector_payload(row))
            await self.res.vectors.upsert("episodes", [point])
            async with self.db.acquire() as conn:
                await mark_episodes_indexed(conn, [row.episode_id], ts)
        if not active:
            await self.forget_episode(row.episode_id, in_index=index)
        return row.episode_id

    async def chunk(
        self,
        text: str,
        *,
        agent_id: str | None = None,
        doc_id: str = "guide",
        domain: str = "nutrition",
        section: Sequence[str] = (),
        own: bool = False,
        active: bool = True,
    ) -> str:
        chunk_id = str(uuid.uuid4())
        agent_id = agent_id or self.agent
        owner = self.user_id if own else None
        async with self.db.acquire() as conn:
            await conn.execute(
                """INSERT INTO knowledge_chunks (chunk_id, agent_id, user_id, domain, doc_id,
                       section_path, position, text, content_hash, active)
                   VALUES ($1, $2, $3, $4, $5, $6::jsonb, 0, $7, $8, $9)""",
                chunk_id,
                agent_id,
                owner,
                domain,
                doc_id,
                list(section),
                text,
                uuid.uuid4().hex,
                active,
            )
        (dense,) = await self._embed([text])
        await self.res.vectors.upsert(
            "knowledge",
            [
                VectorPoint(
                    chunk_id,
                    dense,
                    text,
                    {
                        "user_id": owner or SHARED_OWNER,
                        "agent_id": agent_id,
                        "scope": "agent",
                        "entity_ids": [],
                        "active": active,
                        "doc_id": doc_id,
                        "domain": domain,
                    },
                )
            ],
        )
        return chunk_id

    async def session(
        self,
        chat_id: str,
        turns: Sequence[tuple[str, str]],
        *,
        started_at: datetime,
        ended: bool = False,
        agent_id: str | None = None,
    ) -> tuple[str, list[str]]:
        """A session with ``turns`` (role, text) one minute apart; returns its id and the
        message ids in order."""
        session_id = str(uuid.uuid4())
        agent_id = agent_id or self.agent
        last = started_at + timedelta(minutes=max(0, len(turns) - 1))
        message_ids = [str(uuid.uuid4()) for _ in turns]
        async with self.db.acquire() as conn, conn.transaction():
            await conn.execute(
                """INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at,
                                         last_activity_at, ended_at, turn_count)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""",
                session_id,
                self.user_id,
                agent_id,
                chat_id,
                started_at,
                last,
                last if ended else None,
                len(turns),
            )
            for i, ((role, text), message_id) in enumerate(zip(turns, message_ids, strict=True)):
                await conn.execute(
                    """INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id,
                                             turn_id, position, role, text, ts)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)""",
                    message_id,
                    self.user_id,
                    agent_id,
                    chat_id,
                    session_id,
                    f"{session_id[:8]}-t{i // 2}",
                    i % 2,
                    role,
                    text,
                    started_at + timedelta(minutes=i),
                )
            await conn.execute(
                """UPDATE sessions SET last_message_seq = (
                       SELECT max(seq) FROM messages WHERE session_id = $1)
                    WHERE session_id = $1""",
                session_id,
            )
        return session_id, message_ids

    async def index_messages(self, message_ids: Sequence[str]) -> None:
        """Index logged messages the way memory-upserter does after a commit."""
        from services.memory_upserter.commit.index import sync_message_vectors

        warning = await sync_message_vectors(
            self.db, self.res.vectors, self.res.embedder, self.user_id, message_ids
        )
        assert warning is None, warning

    async def checkpoint(self, session_id: str, through_message_id: str | None = None) -> None:
        """Consolidate the session up to a message (default: all of it)."""
        async with self.db.acquire() as conn:
            await conn.execute(
                """UPDATE sessions SET consolidated_at = now(), checkpoint_message_seq =
                       COALESCE((SELECT seq FROM messages WHERE message_id = $2),
                                last_message_seq)
                    WHERE session_id = $1""",
                session_id,
                through_message_id,
            )

    async def forget_episode(self, episode_id: str, *, in_index: bool = True) -> None:
        async with self.db.acquire() as conn:
            await conn.execute(
                """UPDATE episodes SET active = false, forgotten_at = now(),
                       forget_reason = 'test' WHERE episode_id = $1""",
                episode_id,
            )
        if in_index:
            await self.res.vectors.set_active(
                "episodes", user_id=self.user_id, ids=[episode_id], active=False
            )

    def request(self, message: str, **extra: Any) -> RetrieveRequest:
        body = {
            "user_id": self.user_id,
            "agent_id": self.agent,
            "chat_id": "tg:1",
            "message": message,
            "now": T0.isoformat(),
            **extra,
        }
        return msgspec.convert(body, RetrieveRequest)


@pytest.fixture
async def memory(resources: Clients, user_id: str) -> Memory:
    return await Memory(resources, user_id, uuid.uuid4().hex[:8]).ensure()


@pytest.fixture
def memory_for(resources: Clients):
    """A second user's memory in the same test (isolation checks), with the same agents."""

    async def make(other_user: str, like: Memory) -> Memory:
        other = Memory(resources, other_user, "x")
        other.agent, other.other_agent = like.agent, like.other_agent
        return await other.ensure()

    return make
