"""Shared writes of a user's declarative graph: entities (alias-aware), facts (dedup and
contradiction), and the ``facts`` vector index behind them. memory-upserter (turn commits,
profile seeding) and reflection-writer (psyche facts) both write through here, so a fact means
the same thing whoever stores it.

**Serialization.** Every writer of a user's graph holds that user's transaction-scoped advisory
lock (:func:`lock_user`) before reading what it will change: two turns racing on one memory key,
or on one new name, queue instead of creating twins or tripping a unique index. Take it first in
your transaction (before other row locks) to keep lock order deadlock-free; :func:`apply_facts`
takes it itself unless told the caller already holds it.

**Memory key** (000 ``memoryKey``, extended so distinct facts stay apart)::

    {memory_type}|{entity_type}|{primary_ref}|{fact_type}|{predicate}[|{object}]

lower-case memory type; ``entity_type`` from the subject's category (person, place, org,
project, else the category); ``primary_ref`` the subject's ``entity_ref`` slug (``self`` for
the user, the entity id when it has no ref); ``predicate`` canonical and lower-case;
``object`` — the object's slug or the value's slug — only for multi-valued predicates. So a
single-valued predicate (:data:`EXCLUSIVE_PREDICATES`: LIVES_IN, WORKS_AT, NAME …) has one key
per subject: a different value is a contradiction, which closes the old row (``SUPERSEDED``,
``valid_to``, ``superseded_by``) instead of overwriting it. Multi-valued ones (LIKES, ALLERGY,
HAS_SISTER …) get a key per value: a new value adds a fact, a repeated one updates it.
``people|person|marta|relationship|has_brother|john`` · ``profile|person|self|fact|lives_in``.

**Use** (reflection-writer storing a psyche fact)::

    async with pool.acquire() as conn, conn.transaction():
        await lock_user(conn, user_id)                 # first, before other row locks
        await ensure_user_and_agent(conn, user_id, agent_id)
        me = await self_entity_id(conn, user_id)
        results = await apply_facts(conn, user_id, [FactWrite(
            me, "VALUES", "Values honesty", "PSYCHE", fact_type="value", source="reflection",
            message_ids=ids)], now=now, lock=False)
    warning = await sync_fact_vectors(pool, vectors, embedder, user_id,
                                      [r.rel_id for r in results] + [r.replaced_id for r in
                                      results if r.replaced_id])

Modules: :mod:`.keys` (pure: slugs, predicates, the key), :mod:`.users`, :mod:`.entities`,
:mod:`.facts`, :mod:`.index` (the ``facts`` vector collection).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.core.memory_store.entities import upsert_entities, upsert_entity
    from services.core.memory_store.fact_ops import FactOutcome, FactResult, FactWrite
    from services.core.memory_store.facts import apply_facts
    from services.core.memory_store.index import (
        FACTS,
        FactIndexRow,
        index_facts,
        load_fact_rows,
        mark_indexed,
        sync_fact_vectors,
        unindexed_facts,
    )
    from services.core.memory_store.keys import (
        EXCLUSIVE_PREDICATES,
        SELF_REF,
        canonical_predicate,
        entity_type,
        memory_key,
        primary_ref,
        slug,
    )
    from services.core.memory_store.shapes import EntityResult, EntityWrite
    from services.core.memory_store.users import (
        ensure_user_and_agent,
        lock_user,
        self_entity_id,
    )

# Lazy re-exports: importing the pure parts (``.keys``, ``.shapes``) runs this file, which must
# not pull the driver into pure logic (memory-upserter's commit.read imports them).
_HOME = {
    **dict.fromkeys(("upsert_entities", "upsert_entity"), "entities"),
    **dict.fromkeys(("FactOutcome", "FactResult", "FactWrite"), "fact_ops"),
    "apply_facts": "facts",
    **dict.fromkeys(
        (
            "FACTS",
            "FactIndexRow",
            "index_facts",
            "load_fact_rows",
            "mark_indexed",
            "sync_fact_vectors",
            "unindexed_facts",
        ),
        "index",
    ),
    **dict.fromkeys(
        (
            "EXCLUSIVE_PREDICATES",
            "SELF_REF",
            "canonical_predicate",
            "entity_type",
            "memory_key",
            "primary_ref",
            "slug",
        ),
        "keys",
    ),
    **dict.fromkeys(("EntityResult", "EntityWrite"), "shapes"),
    **dict.fromkeys(("ensure_user_and_agent", "lock_user", "self_entity_id"), "users"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "EXCLUSIVE_PREDICATES",
    "FACTS",
    "SELF_REF",
    "EntityResult",
    "EntityWrite",
    "FactIndexRow",
    "FactOutcome",
    "FactResult",
    "FactWrite",
    "apply_facts",
    "canonical_predicate",
    "ensure_user_and_agent",
    "entity_type",
    "index_facts",
    "load_fact_rows",
    "lock_user",
    "mark_indexed",
    "memory_key",
    "primary_ref",
    "self_entity_id",
    "slug",
    "sync_fact_vectors",
    "unindexed_facts",
    "upsert_entities",
    "upsert_entity",
]
