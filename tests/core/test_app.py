"""The app factory every node is built with: health, readiness, errors, auth, request ids."""

from __future__ import annotations

import warnings
from typing import Annotated

import asyncpg
import httpx
import msgspec
import pytest
from litestar import post
from litestar.exceptions import LitestarDeprecationWarning
from litestar.params import JSONBody
from structlog.testing import capture_logs

from contracts.common import SLOT_CONTRACT_VERSION, Ids, Struct
from services.core.app import NodeSpec, create_app
from services.core.deps import Clients, Database, Inject
from services.core.logs import bind_ids
from services.core.migrate import MIGRATIONS_DIR
from services.core.settings import Settings
from services.core.working_memory import WorkingMemory
from services.nodes import all_specs, node_spec


class EchoRequest(Struct, kw_only=True):
    ids: Ids
    count: Annotated[int, msgspec.Meta(ge=0, le=10)]
    words: list[Annotated[str, msgspec.Meta(max_length=5)]] = []


class EchoResponse(Struct, kw_only=True):
    user_id: str
    total: int


@post("/v1/echo", status_code=200)
async def echo(
    data: JSONBody[EchoRequest],
    db: Inject[Database],
    memory: Inject[WorkingMemory],
) -> EchoResponse:
    """Takes the database and the working memory: the node needs postgres and redis."""
    bind_ids(user_id=data.ids.user_id, agent_id=data.ids.agent_id)
    async with db.acquire() as conn:
        total = await conn.fetchval("SELECT $1::int + 1", data.count)
    return EchoResponse(user_id=data.ids.user_id, total=total)


SPEC = NodeSpec(name="echo", summary="test node", route_handlers=[echo])
BODY = {"ids": {"user_id": "alice", "agent_id": "deanna", "chat_id": "tg:1"}, "count": 2}


@pytest.fixture
async def client(settings: Settings, resources: Clients, app_client):
    async with app_client(create_app(SPEC, settings, resources)) as client:
        yield client


async def test_health_readiness_version(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok", "node": "echo"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200, ready.json()
    assert ready.json()["checks"] == {"postgres": "ok", "redis": "ok"}
    assert (await client.get("/version")).json()["slot_contract_version"] == SLOT_CONTRACT_VERSION


async def test_version_names_the_schema_version_the_database_holds(
    client: httpx.AsyncClient, database_url: str
) -> None:
    """The newest migration of the code, which the test database (migrated) has applied."""
    reported = (await client.get("/version")).json()["schema_version"]
    newest = sorted(path.stem for path in MIGRATIONS_DIR.glob("*.sql"))[-1]
    assert reported == newest
    conn = await asyncpg.connect(database_url)
    try:
        applied = await conn.fetchval("SELECT max(version) FROM schema_migrations")
    finally:
        await conn.close()
    assert applied == reported


async def test_openapi_at_stable_path_documents_the_route(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    assert "/v1/echo" in spec["paths"]
    assert "EchoRequest" in str(spec["components"])


async def test_a_good_request_is_served_and_logged_once_with_ids(client: httpx.AsyncClient) -> None:
    with capture_logs() as logs:
        response = await client.post("/v1/echo", json=BODY, headers={"X-Request-Id": "n8n-42"})
    assert response.status_code == 200
    assert response.json() == {"user_id": "alice", "total": 3}
    assert response.headers["x-request-id"] == "n8n-42"
    lines = [entry for entry in logs if entry["event"] == "request"]
    assert len(lines) == 1
    line = lines[0]
    assert line["status"] == 200 and line["route"] == "/v1/echo" and line["node"] == "echo"
    assert line["user_id"] == "alice" and line["agent_id"] == "deanna"
    assert line["request_id"] == "n8n-42" and line["duration_ms"] >= 0


async def test_a_request_without_id_gets_a_fresh_one(client: httpx.AsyncClient) -> None:
    first = await client.get("/healthz")
    second = await client.get("/healthz")
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


async def test_every_invalid_field_is_listed_with_its_path(client: httpx.AsyncClient) -> None:
    body = {
        "ids": {"user_id": "", "agent_id": "deanna"},
        "count": 99,
        "words": ["ok", "toolong"],
        "colour": "red",
    }
    response = await client.post("/v1/echo", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == 422 and problem["title"] and problem["type"].startswith("https://")
    paths = {error["path"] for error in problem["errors"]}
    assert paths == {"$.ids.user_id", "$.ids.chat_id", "$.count", "$.words[1]", "$.colour"}
    assert all(error["reason"] for error in problem["errors"])


async def test_malformed_json_is_a_problem_not_a_crash(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/echo", content=b'{"ids": ', headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 422)
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"][0]["path"] == "$"


async def test_an_oversized_body_is_refused(
    settings: Settings, resources: Clients, app_client
) -> None:
    small = msgspec.structs.replace(settings, max_body_bytes=64)
    async with app_client(create_app(SPEC, small, resources)) as client:
        response = await client.post("/v1/echo", json={**BODY, "words": ["x"] * 50})
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert "64 bytes" in problem["detail"] and "TWIN_MAX_BODY_BYTES" in problem["detail"]
    # and the limit that applies below it, which a larger body would not lift
    assert "message to /v1/pulse or /v1/turn holds at most 20,000 characters" in problem["detail"]
    assert problem["request_id"] == response.headers["x-request-id"]


async def test_bytes_that_are_not_utf8_are_named_at_their_offset_in_the_body(
    client: httpx.AsyncClient,
) -> None:
    body = b'{"ids": {"user_id": "al\xffice", "agent_id": "deanna", "chat_id": "tg:1"}}'
    response = await client.post(
        "/v1/echo", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": "$", "reason": f"malformed JSON body: not UTF-8 (byte {body.index(0xFF)})"}
    ]


async def test_unknown_route_is_a_problem_with_its_request_id(client: httpx.AsyncClient) -> None:
    with capture_logs() as logs:
        response = await client.get("/v1/nothing-here", headers={"X-Request-Id": "n8n-404"})
    assert response.status_code == 404
    problem = response.json()
    assert problem["status"] == 404 and problem["request_id"] == "n8n-404"
    assert response.headers["x-request-id"] == "n8n-404"
    assert problem["detail"] == (
        "no route GET /v1/nothing-here; every route is listed at /schema/openapi.json"
    )
    assert [e["status"] for e in logs if e["event"] == "request"] == [404]


async def test_a_wrong_method_is_a_problem_naming_the_allowed_one(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/v1/echo")
    assert response.status_code == 405
    problem = response.json()
    assert problem["request_id"] == response.headers["x-request-id"]
    assert problem["detail"] == "/v1/echo does not answer GET; it answers POST, OPTIONS"


async def test_bearer_token_guards_v1_but_not_health(
    settings: Settings, resources: Clients, app_client
) -> None:
    guarded = msgspec.structs.replace(settings, node_token="s3cret-token")
    async with app_client(create_app(SPEC, guarded, resources)) as client:
        with capture_logs() as logs:
            missing = await client.post("/v1/echo", json=BODY)
            wrong = await client.post(
                "/v1/echo", json=BODY, headers={"Authorization": "Bearer nope"}
            )
            right = await client.post(
                "/v1/echo", json=BODY, headers={"Authorization": "Bearer s3cret-token"}
            )
        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get("/readyz")).status_code == 200
    for response in (missing, wrong):
        assert response.status_code == 401
        assert response.json()["title"] == "Unauthorized"
        assert response.headers["content-type"].startswith("application/problem+json")
    assert right.status_code == 200
    assert "s3cret-token" not in repr(logs)


async def test_a_stopped_dependency_gives_503_with_retry_after(
    settings: Settings, app_client
) -> None:
    down = msgspec.structs.replace(
        settings,
        database_url="postgresql://postgres@127.0.0.1:1/none",
        redis_url="redis://127.0.0.1:1/0",
        pg_timeout_s=1.0,
        redis_timeout_s=0.5,
        ready_timeout_s=1.5,
    )
    async with app_client(create_app(SPEC, down)) as client:
        ready = await client.get("/readyz")
        served = await client.post("/v1/echo", json=BODY)
        assert (await client.get("/healthz")).status_code == 200
    assert ready.status_code == 503
    assert ready.headers["retry-after"] == str(down.retry_after_s)
    assert ready.json()["checks"]["postgres"] != "ok" and ready.json()["checks"]["redis"] != "ok"
    assert served.status_code == 503
    assert served.headers["retry-after"] == str(down.retry_after_s)
    assert served.json()["dependency"] == "postgres"


NODE_NAMES = (
    "pulse-decay",
    "graph-hydrator",
    "rag-gate",
    "envelope-validator",
    "reflection-writer",
    "memory-upserter",
)


def test_no_node_uses_a_deprecated_litestar_api(settings: Settings) -> None:
    """Every handler marks its body (``JSONBody``) and dependencies (``NamedDependency``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for spec in [*all_specs().values(), SPEC]:
            create_app(spec, settings)
    assert [
        str(w.message) for w in caught if issubclass(w.category, LitestarDeprecationWarning)
    ] == []


def test_every_node_has_a_spec_with_known_dependencies() -> None:
    specs = all_specs()
    assert set(specs) == set(NODE_NAMES)
    assert specs["envelope-validator"].stores == frozenset()  # pure: opens nothing


@pytest.mark.parametrize("node", sorted(NODE_NAMES))
async def test_every_node_answers_health_and_readiness(
    node: str, settings: Settings, resources: Clients, app_client
) -> None:
    async with app_client(create_app(node_spec(node), settings, resources)) as client:
        assert (await client.get("/healthz")).json()["node"] == node
        ready = await client.get("/readyz")
        assert ready.status_code == 200, ready.json()
