"""The ``messages`` collection's rows and points (``memory_store.message_index``), on messages a
commit logged (memory-upserter's :func:`commit_turn`, the product's writer of the log): a row
carries the message before it in its session, the point's lexical text is that context and the
message while its dense text is the message alone, its payload holds no text or speaker, and a
commit leaves its messages stamped indexed."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec

from contracts.memory import CommitRequest
from services.core.deps import Clients
from services.core.memory_store.message_index import (
    embedding_text,
    load_message_rows,
    mark_messages,
    message_point,
)
from services.memory_upserter.commit.write import commit_turn
from services.memory_upserter.stores import MemoryStores

NOW = datetime(2026, 2, 9, 10, 0, tzinfo=UTC)


async def _logged(resources: Clients, user_id: str) -> list[str]:
    """A turn of two messages (the user's with a speaker), logged by a commit."""
    body = {
        "user_id": user_id,
        "agent_id": "deanna",
        "chat_id": "tg:1",
        "turn_id": f"t-{uuid.uuid4().hex[:8]}",
        "now": NOW.isoformat(),
        "messages": [
            {"role": "user", "text": "We moved to Porto in May.", "speaker": "Ana"},
            {"role": "assistant", "text": "How is the new flat?"},
        ],
        "plan": {},
    }
    r = resources
    stores = MemoryStores(r.db, r.vectors, r.embedder, r.memory)
    req = msgspec.convert(body, CommitRequest)
    answer, _ = await commit_turn(stores, None, r.settings, r.background, req, request_id=None)
    await r.background.drain()
    return list(answer.message_ids)


async def test_a_messages_point_has_its_context_for_words_and_no_text_in_its_payload(
    resources: Clients, user_id: str
) -> None:
    ids = await _logged(resources, user_id)
    async with resources.db.acquire() as conn:
        assert await load_message_rows(conn, user_id, ids, unindexed_only=True) == []
        said, reply = await load_message_rows(conn, user_id, ids)
    assert (said.previous, reply.previous) == (None, "Ana: We moved to Porto in May.")
    assert embedding_text(said) == "Ana: We moved to Porto in May."
    point = message_point(user_id, reply, [0.0])
    assert point.id == str(reply.message_id) == ids[1]
    assert point.text == "Ana: We moved to Porto in May.\nHow is the new flat?"
    assert embedding_text(reply) == "How is the new flat?"
    assert point.payload["scope"] == "agent" and point.payload["role"] == "assistant"
    assert not {"text", "speaker"} & set(point.payload)
    assert "Porto" not in str(point.payload)


async def test_marking_messages_indexed_stamps_only_those_not_stamped_yet(
    resources: Clients, user_id: str
) -> None:
    ids = await _logged(resources, user_id)
    async with resources.db.acquire() as conn:
        await conn.execute(
            "UPDATE messages SET indexed_at = NULL WHERE message_id = $1::uuid", ids[0]
        )
        before = await conn.fetchval(
            "SELECT indexed_at FROM messages WHERE message_id = $1::uuid", ids[1]
        )
        (unindexed,) = await load_message_rows(conn, user_id, ids, unindexed_only=True)
        assert str(unindexed.message_id) == ids[0]
        await mark_messages(conn, [unindexed.message_id, uuid.UUID(ids[1])])
        assert await load_message_rows(conn, user_id, ids, unindexed_only=True) == []
        after = await conn.fetchval(
            "SELECT indexed_at FROM messages WHERE message_id = $1::uuid", ids[1]
        )
    assert before is not None and after == before
