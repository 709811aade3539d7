"""``POST /v1/envelope`` through the app. The node does no I/O, so it needs no fixtures."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import structlog
from litestar.testing import AsyncTestClient
from structlog.testing import capture_logs

from services.core.app import create_app
from services.core.settings import Settings
from services.envelope_validator.app import SPEC

from .samples import USER, fact, full_body

ROUTE = "/v1/envelope"


@pytest.fixture
async def client():
    async with AsyncTestClient(create_app(SPEC, Settings())) as client:
        yield client


async def test_a_full_envelope_answers_messages_format_warnings_and_stats(
    client: AsyncTestClient,
) -> None:
    response = await client.post(ROUTE, json=full_body())
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {
        "slot_contract_version",
        "envelope",
        "messages",
        "response_format",
        "warnings",
        "stats",
        "memory_order",
    }
    assert answer["envelope"]["GRAPH"]["user_id"] == USER
    assert answer["envelope"]["GRAPH"]["authority"] == "authoritative"
    assert [m["role"] for m in answer["messages"]][:2] == ["system", "user"]
    assert answer["messages"][-1] == {"role": "user", "content": "Did I tell you Marta called?"}
    assert answer["response_format"]["json_schema"]["strict"] is True
    assert answer["warnings"] == []
    assert answer["stats"]["total_chars"] == sum(len(m["content"]) for m in answer["messages"])


async def test_a_bad_envelope_is_one_422_listing_contract_and_semantic_problems(
    client: AsyncTestClient,
) -> None:
    body = full_body()
    body["AFFECT"]["authority"] = "factual"
    body["GRAPH"]["user_id"] = "tg:999"
    body["GRAPH"]["wins"][0]["status"] = "PENDING"
    body["EPISODE"]["slot_contract_version"] = "2.0"
    body["recent_turns"][3]["role"] = "narrator"
    body["colour"] = "red"
    del body["user_message"]
    response = await client.post(ROUTE, json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == 422 and problem["title"] == "Invalid envelope"
    assert {e["path"] for e in problem["errors"]} == {
        "$.AFFECT.authority",
        "$.GRAPH.user_id",
        "$.GRAPH.wins[0].status",
        "$.EPISODE.slot_contract_version",
        "$.recent_turns[3].role",
        "$.colour",
        "$.user_message",
    }
    assert all(e["reason"] for e in problem["errors"])


async def test_a_graph_of_another_user_is_refused_with_every_semantic_problem(
    client: AsyncTestClient,
) -> None:
    body = full_body()
    body["GRAPH"]["user_id"] = "tg:999"
    body["AFFECT"]["agent_id"] = "anaketa"
    body["GRAPH"]["relevant_facts"].append(fact("rf0", "Another text under rf0."))
    response = await client.post(ROUTE, json=body)
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert [e["path"] for e in errors] == [
        "$.AFFECT.agent_id",
        "$.GRAPH.user_id",
        "$.GRAPH.relevant_facts[8].fact_id",
    ]
    assert "tg:999" in errors[1]["reason"]


async def test_over_full_lists_and_long_texts_are_cut_with_warnings_not_refused(
    client: AsyncTestClient,
) -> None:
    body = full_body(user_context="x" * 900)
    body["GRAPH"]["foundation"] += [fact(f"more{i}", f"More {i}.") for i in range(3)]
    response = await client.post(ROUTE, json=body)
    assert response.status_code == 200, response.text
    warnings = {(w["code"], w["section"]) for w in response.json()["warnings"]}
    assert warnings == {("capped", "GRAPH.foundation"), ("truncated", "user_context")}
    assert len(response.json()["envelope"]["GRAPH"]["foundation"]) == 12


async def test_without_now_the_server_clock_dates_the_turn(client: AsyncTestClient) -> None:
    body = full_body(realtime_context="")
    del body["now"]
    response = await client.post(ROUTE, json=body)
    assert response.status_code == 200
    assert datetime.now(UTC).strftime("%Y-%m-%d") in response.json()["messages"][0]["content"]


async def test_malformed_json_is_a_problem_not_a_crash(client: AsyncTestClient) -> None:
    response = await client.post(
        ROUTE, content=b'{"user_id": }', headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    [error] = response.json()["errors"]
    assert error["path"] == "$" and error["reason"].startswith("malformed JSON body")


async def test_the_request_log_line_names_the_user_and_the_prompt_size(
    client: AsyncTestClient,
) -> None:
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logs:
        await client.post(ROUTE, json=full_body(persona_prompt="p" * 20_000))
    line = next(entry for entry in logs if entry["event"] == "request")
    assert line["user_id"] == USER and line["prompt_chars"] > 20_000
    assert line["warnings"] == ["prompt_large"]


async def test_openapi_documents_the_route_its_contract_and_the_problem(
    client: AsyncTestClient,
) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    route = spec["paths"][ROUTE]["post"]
    assert "EnvelopeRequest" in str(route["requestBody"])
    assert {"200", "422"} <= set(route["responses"])


async def test_the_node_is_ready_without_any_dependency(client: AsyncTestClient) -> None:
    ready = await client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {}
