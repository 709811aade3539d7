"""HTTP surface of memory-upserter: thin handlers over :mod:`.commit.write`,
:mod:`.person.knowledge`, :mod:`.forget.run`, :mod:`.person.export`, :mod:`.person.profile`
and :mod:`.person.reindex`."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get, post
from litestar.di import Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody, Parameter
from litestar.response import Stream

from contracts.common import UserId
from contracts.memory import CommitRequest, CommitResponse
from contracts.memory_admin import (
    KnowledgeRequest,
    KnowledgeResponse,
    ProfileRequest,
    ProfileResponse,
    ReindexRequest,
    ReindexResponse,
)
from contracts.privacy import ForgetRequest, ForgetResponse, ImportResponse, PersonDocument
from services.core.app import NodeSpec
from services.core.background import Background
from services.core.deps import Database, Inject
from services.core.embedder import Embedder
from services.core.llm import LLM
from services.core.logs import bind_ids
from services.core.settings import Settings
from services.core.validation import convert
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory
from services.memory_upserter.commit.write import commit_turn
from services.memory_upserter.forget.run import forget as forget_memory
from services.memory_upserter.person.export import export_document
from services.memory_upserter.person.importer import import_document
from services.memory_upserter.person.knowledge import ingest
from services.memory_upserter.person.profile import seed_profile
from services.memory_upserter.person.reindex import reindex as sweep
from services.memory_upserter.person.sweep import index_sweep
from services.memory_upserter.stores import MemoryStores

REPLAYED = "Idempotent-Replayed"


def _memory_stores(
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
    memory: Inject[WorkingMemory],
) -> MemoryStores:
    return MemoryStores(db, vectors, embedder, memory)


def _request_id(request: Request[Any, Any, Any]) -> str | None:
    return request.scope.get("state", {}).get("request_id")


@post(
    "/v1/commit",
    status_code=200,
    tags=["memory-upserter"],
    summary="Commit one turn: messages, session, plan (facts, entities, todos), working memory",
    description=(
        "After the LLM. Logs the turn's messages, continues or opens the session, applies "
        "the memory-write plan (`plan`, or the LLM's raw `answer`; without either the shadow "
        "judge extracts one) in one transaction — entities with aliases, facts deduplicated "
        "by memory key with contradictions superseding (never overwriting), todos captured "
        "with their source sentence, a commitment completed only under 001's rule — then "
        "indexes the facts and updates the working memory. What the model wrote is never "
        "refused: each entity, fact, todo or field of the plan that does not validate is "
        "dropped (or, with one reading, repaired) with a warning naming its JSON path, and an "
        "answer that is not JSON is the reply; a 4xx names what the flow itself sent wrong "
        "(ids, messages, `now`). Idempotent by `turn_id`: a retry "
        "answers the first commit again (header `Idempotent-Replayed: true`); another body "
        "under the same `turn_id` is a 409."
    ),
)
async def commit(
    data: JSONBody[CommitRequest],
    request: Request[Any, Any, Any],
    memory_stores: Inject[MemoryStores],
    llm: Inject[LLM | None],
    settings: Inject[Settings],
    background: Inject[Background],
) -> Response[CommitResponse]:
    bind_ids(
        user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id, turn_id=data.turn_id
    )
    answer, replayed = await commit_turn(
        memory_stores, llm, settings, background, data, request_id=_request_id(request)
    )
    return Response(answer, headers={REPLAYED: "true"} if replayed else {})


@post(
    "/v1/knowledge",
    status_code=200,
    tags=["memory-upserter"],
    summary="Ingest a markdown document into an agent's knowledge (by content hash)",
    description=(
        "Splits the markdown by headings and size (~800–1200 characters, sentence-aware), "
        "upserts the chunks by content hash (an unchanged document changes nothing and "
        "embeds nothing; a changed section replaces its old chunks), and indexes the new "
        "ones. `user_id` makes the document visible to that user only."
    ),
)
async def knowledge(
    data: JSONBody[KnowledgeRequest],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
) -> KnowledgeResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, doc_id=data.doc_id)
    return await ingest(db, vectors, embedder, data)


@post(
    "/v1/forget",
    status_code=200,
    tags=["memory-upserter"],
    summary="Forget, scoped (session, agent, global), soft by default, hard on request",
    description=(
        "003 §9. Soft: rows marked forgotten with reason and time, vectors inactive, entity "
        "ids and turns removed from working memory. Hard: rows, vectors and working-memory "
        "keys deleted, and the Postgres tables that lost rows rewritten so no byte of them "
        "stays in their files (the vector index never holds text); only an audit line with "
        "ids and counts remains. The answer's `receipt` lists what went from each store and "
        "what remains elsewhere, and for how long. Targets: an entity (name, alias, ref or "
        "id: it, its aliases, every relation touching it), a fact / episode / todo id, or a "
        "text."
    ),
)
async def forget(
    data: JSONBody[ForgetRequest],
    request: Request[Any, Any, Any],
    memory_stores: Inject[MemoryStores],
    background: Inject[Background],
) -> ForgetResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id)
    return await forget_memory(memory_stores, background, data, request_id=_request_id(request))


@get(
    "/v1/export",
    tags=["memory-upserter"],
    summary="Everything Twin Core holds about a person, as one JSON document (streamed)",
    description=(
        "For data-access and portability requests. `tables` holds every row of every table "
        "with a `user_id` column, all columns (entities and aliases, facts with their history "
        "in `relations`, todos, episodes, `summary_spine`, messages, sessions, the knowledge "
        "documents the person owns, affect and working memory, the forget log…); "
        "`working_memory` the live session and affect of each conversation. Streamed from "
        "one consistent snapshot; an unknown person gets the same document with empty "
        "lists."
    ),
    responses={
        200: ResponseSpec(
            data_container=PersonDocument, description="the person's document (streamed)"
        )
    },
)
async def export(
    db: Inject[Database],
    memory: Inject[WorkingMemory],
    user_id: Annotated[str, Parameter(description="The person's id.")],
) -> Stream:
    person = convert(user_id, UserId, root="$.user_id")
    bind_ids(user_id=person)
    return Stream(export_document(db, memory, person), media_type="application/json")


@post(
    "/v1/import",
    status_code=200,
    tags=["memory-upserter"],
    summary="A person's export document back into this deployment, idempotently",
    description=(
        "Takes what `GET /v1/export` answered. One transaction; every row is written only "
        "if absent (same key), so importing the same document twice writes nothing; a "
        "table this schema does not know, or a row of another user, refuses the document. "
        "The facts and messages are indexed afresh; working memory is not imported. A "
        "document is bounded by the node's body limit (`TWIN_MAX_BODY_BYTES`)."
    ),
)
async def import_person(
    data: JSONBody[PersonDocument],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
) -> ImportResponse:
    bind_ids(user_id=data.user_id)
    return await import_document(db, vectors, embedder, data)


@post(
    "/v1/profile",
    status_code=200,
    tags=["memory-upserter"],
    summary="Seed a user's profile: seed text and pinned foundation facts, idempotently",
)
async def profile(
    data: JSONBody[ProfileRequest],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
) -> ProfileResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id)
    return await seed_profile(db, vectors, embedder, data)


@post(
    "/v1/reindex",
    status_code=200,
    tags=["memory-upserter"],
    summary="Index what a failed embedder or vector index left unindexed",
)
async def reindex(
    data: JSONBody[ReindexRequest],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
) -> ReindexResponse:
    bind_ids(user_id=data.user_id)
    return await sweep(db, vectors, embedder, data)


SPEC = NodeSpec(
    name="memory-upserter",
    summary="Applies the memory-write plan of a turn idempotently; ingests knowledge; "
    "seeds profiles; forgets on request with a deletion receipt; exports and imports "
    "a person.",
    route_handlers=[commit, knowledge, forget, export, import_person, profile, reindex],
    dependencies={
        "memory_stores": Provide(_memory_stores, sync_to_thread=False),
    },
    lifespan=[index_sweep],
)
