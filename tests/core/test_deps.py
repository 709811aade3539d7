"""Typed capabilities: a node's stores are read off its handlers, and each capability a
handler takes is the process's one client, never None."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import pytest
from litestar import get
from litestar.di import Provide

from services.core.app import NodeSpec, create_app
from services.core.deps import Clients, Database, Inject, MissingCapability
from services.core.embedder import Embedder
from services.core.injection import needs_of
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory
from services.nodes import all_specs


@dataclass(frozen=True)
class Lookup:
    """A flow's own bundle of capabilities, built by a provider the node registers."""

    db: Database
    vectors: VectorIndex
    embedder: Embedder


def provide_lookup(
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
) -> Lookup:
    return Lookup(db, vectors, embedder)


@get("/v1/count")
async def count(db: Inject[Database]) -> dict[str, int]:
    async with db.acquire() as conn:
        return {"one": await conn.fetchval("SELECT 1")}


@get("/v1/memory")
async def memory_kind(memory: Inject[WorkingMemory]) -> dict[str, str]:
    return {"kind": type(memory).__name__}


@get("/v1/lookup")
async def lookup(lookup: Inject[Lookup]) -> dict[str, bool]:
    async with lookup.db.acquire() as conn:
        await conn.execute("SELECT 1")
    return {"vectors": lookup.vectors is not None, "embedder": lookup.embedder is not None}


def test_needs_are_the_capability_parameters_of_the_handlers() -> None:
    assert needs_of([count], {}) == {"postgres"}
    assert needs_of([count, memory_kind], {}) == {"postgres", "redis"}


def test_needs_follow_a_nodes_own_providers_transitively() -> None:
    dependencies = {"lookup": Provide(provide_lookup, sync_to_thread=False)}
    assert needs_of([lookup], dependencies) == {"postgres", "vectors", "embedder"}
    spec = NodeSpec(
        name="lookup", summary="test", route_handlers=[lookup], dependencies=dependencies
    )
    assert spec.stores == {"postgres", "vectors", "embedder"}


def test_each_node_needs_exactly_the_stores_its_handlers_use() -> None:
    """What ``twin serve <node>`` opens and ``/readyz`` checks, per node."""
    stores = {name: spec.stores for name, spec in all_specs().items()}
    assert stores == {
        "pulse-decay": {"redis"},
        "graph-hydrator": {"postgres"},
        "rag-gate": {"postgres", "vectors", "embedder", "redis"},  # redis: /v1/turn's pulse
        "envelope-validator": set(),
        "memory-upserter": {"postgres", "redis", "vectors", "embedder", "llm"},
        "reflection-writer": {"postgres", "vectors", "embedder", "llm"},
    }


async def test_a_handler_gets_the_processes_clients(
    settings: Settings, resources: Clients, app_client
) -> None:
    spec = NodeSpec(
        name="caps",
        summary="test",
        route_handlers=[count, memory_kind, lookup],
        dependencies={"lookup": Provide(provide_lookup, sync_to_thread=False)},
    )
    async with app_client(create_app(spec, settings, resources)) as client:
        assert (await client.get("/v1/count")).json() == {"one": 1}
        assert (await client.get("/v1/memory")).json() == {"kind": "WorkingMemory"}
        assert (await client.get("/v1/lookup")).json() == {"vectors": True, "embedder": True}
        ready = (await client.get("/readyz")).json()
    assert set(ready["checks"]) == {"postgres", "redis", "vectors", "embedder"}


async def test_a_node_opens_only_the_stores_its_handlers_take(
    settings: Settings, app_client
) -> None:
    """No shared clients: the app's lifespan opens what the handlers need, and nothing else."""
    spec = NodeSpec(name="count", summary="test", route_handlers=[count])
    app = create_app(spec, settings)
    async with app_client(app) as client:
        assert (await client.get("/v1/count")).json() == {"one": 1}
        opened: Clients = app.state.clients
        assert opened.opened == {"postgres"}
        with pytest.raises(MissingCapability, match="redis was not opened"):
            _ = opened.memory
        ready = await client.get("/readyz")
    assert ready.json()["checks"] == {"postgres": "ok"}


async def test_replace_swaps_one_client_and_shares_the_rest(
    settings: Settings, resources: Clients
) -> None:
    quick = msgspec.structs.replace(settings, retry_after_s=7)
    swapped = resources.replace(settings=quick)
    assert swapped.settings.retry_after_s == 7 and resources.settings is settings
    assert swapped.db is resources.db and swapped.vectors is resources.vectors
    assert swapped.background is resources.background
