"""A unique-key race on the person's facts is a clean retry, never a 500 (issue 31 item 8).

The race is made deterministic in the real Postgres: a trigger, for this test's user only,
inserts the very fact the commit is inserting just before it does (what a concurrent writer
would have done), so the commit's own insert hits ``uniq_relations_memory_key``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from structlog.testing import capture_logs

from services.core.deps import Clients
from tests.reliability.helpers import PLAN, commit_body, rows

_COLUMNS = (
    "rel_id, user_id, scope, agent_id, subject_id, predicate, object_id, object_value, "
    "confidence, memory_type, fact_type, memory_key, text, importance, pinned, source, "
    "valid_from, valid_to, provenance_message_ids, created_at, updated_at"
)
_NEW = ", ".join(f"(NEW).{column}" for column in _COLUMNS.split(", ")[1:])


@asynccontextmanager
async def _rival_writer(res: Clients, user_id: str, *, once: bool) -> AsyncIterator[None]:
    """Before the commit inserts a fact of ``user_id``, the same fact appears (once, or every
    time); dropped afterwards, so no other test meets it."""
    name = f"race_{uuid.uuid4().hex[:8]}"
    fires = f"nextval('{name}') = 1" if once else "true"
    async with res.db.acquire() as conn:
        await conn.execute(f"CREATE SEQUENCE {name}")
        await conn.execute(
            f"""CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.user_id = '{user_id}' AND NEW.memory_key IS NOT NULL
                 AND pg_trigger_depth() = 1 AND {fires} THEN
                INSERT INTO relations ({_COLUMNS})
                SELECT gen_random_uuid(), {_NEW};
              END IF;
              RETURN NEW;
            END $$"""
        )
        await conn.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON relations "
            f"FOR EACH ROW EXECUTE FUNCTION {name}()"
        )
    try:
        yield
    finally:
        async with res.db.acquire() as conn:
            await conn.execute(f"DROP TRIGGER {name} ON relations")
            await conn.execute(f"DROP FUNCTION {name}()")
            await conn.execute(f"DROP SEQUENCE {name}")


async def test_a_unique_key_race_is_retried_and_the_fact_written_once(
    node, throwaway: Clients, user_id: str
) -> None:
    body = commit_body(user_id, plan=PLAN)
    with capture_logs() as logs:
        async with _rival_writer(throwaway, user_id, once=True):
            async with node("memory-upserter", throwaway) as client:
                answer = await client.post("/v1/commit", json=body)
    assert answer.status_code == 200, (answer.text, [e["event"] for e in logs])
    retried = [e for e in logs if e["event"] == "commit_retried"]
    assert [e["constraint"] for e in retried] in (
        ["uniq_relations_memory_key"],
        ["uniq_relations"],
    ), logs
    assert "Marta" not in repr(retried)  # the constraint's name, never the row
    facts = await rows(
        throwaway,
        "SELECT memory_key FROM relations WHERE user_id = $1 AND status = 'ACTIVE'",
        user_id,
    )
    assert len(facts) == len({f["memory_key"] for f in facts}) == len(answer.json()["facts"])


async def test_a_race_lost_on_every_attempt_is_a_503_to_retry_not_a_500(
    node, throwaway: Clients, user_id: str
) -> None:
    async with _rival_writer(throwaway, user_id, once=False):
        async with node("memory-upserter", throwaway) as client:
            answer = await client.post("/v1/commit", json=commit_body(user_id, plan=PLAN))
    assert answer.status_code == 503, answer.text
    assert int(answer.headers["retry-after"]) > 0
    assert "Marta" not in answer.text
