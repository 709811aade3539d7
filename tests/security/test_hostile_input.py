"""Hostile and malformed input against every node's own OpenAPI, over real HTTP.

schemathesis generates bodies and queries from each route's schema — valid ones and, in
negative mode, wrong types, missing fields, out-of-range values — and hand-written cases add
what a generator rarely tries: huge strings, deep nesting, lone surrogates, invalid UTF-8, NUL
bytes, non-JSON bodies and wrong content types. Whatever arrives: never a 5xx, and every
refusal is ``application/problem+json`` that says what was wrong (a 422 names each field).
"""

from __future__ import annotations

import json

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode

from services.core.settings import NODE_PORTS
from tests.security.conftest import LiveStack, openapi, operations

EXAMPLES = 25  # per route and mode: ~600 requests in all, a few seconds each node
V1 = [
    (node, path)
    for node, path in [
        ("pulse-decay", "/v1/pulse"),
        ("graph-hydrator", "/v1/hydrate"),
        ("rag-gate", "/v1/retrieve"),
        ("rag-gate", "/v1/turn"),
        ("envelope-validator", "/v1/envelope"),
        ("reflection-writer", "/v1/consolidate"),
        ("reflection-writer", "/v1/day-log"),
        ("memory-upserter", "/v1/commit"),
        ("memory-upserter", "/v1/knowledge"),
        ("memory-upserter", "/v1/forget"),
        ("memory-upserter", "/v1/export"),
        ("memory-upserter", "/v1/import"),
        ("memory-upserter", "/v1/profile"),
        ("memory-upserter", "/v1/reindex"),
    ]
]


def assert_answered_well(answer: httpx.Response | schemathesis.Response, what: str) -> None:
    status = answer.status_code
    assert status < 500, f"{what}: {status} {answer.text[:500]}"
    if status >= 400:
        assert answer.headers["content-type"] in (
            "application/problem+json",
            ["application/problem+json"],
        ), what
        problem = answer.json()
        assert problem["status"] == status and problem["title"], (what, problem)
        if status == 422:
            assert problem["errors"], (what, problem)
            for error in problem["errors"]:
                assert error["path"].startswith("$") and error["reason"], (what, error)


def test_the_routes_under_attack_are_every_v1_route(live: LiveStack) -> None:
    documented = {(node, path) for node, _, path in operations(live) if path.startswith("/v1/")}
    assert documented == set(V1)


@pytest.mark.parametrize(
    "mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"]
)
@pytest.mark.parametrize(("node", "path"), V1, ids=[p for _, p in V1])
def test_generated_requests_never_get_a_server_error(
    live: LiveStack, node: str, path: str, mode: GenerationMode
) -> None:
    schema = schemathesis.openapi.from_dict(openapi(live, node))
    item = openapi(live, node)["paths"][path]
    method = "POST" if "post" in item else "GET"
    strategy = schema[path][method].as_strategy(generation_mode=mode)

    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=strategy)
    def attack(case) -> None:
        answer = case.call(base_url=live.url(node), headers=live.auth(), timeout=30)
        assert_answered_well(answer, f"{method} {path} {case.body!r:.300}")

    attack()


HOSTILE_BODIES: list[tuple[str, bytes, str]] = [
    (
        "huge string",
        json.dumps(
            {"user_id": "u", "agent_id": "a", "chat_id": "c", "message": "x" * 600_000}
        ).encode(),
        "application/json",
    ),
    ("deep nesting", b'{"user_id": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", "application/json"),
    (
        "lone surrogate",
        b'{"user_id": "\\ud800", "agent_id": "a", "chat_id": "c", "message": "\\udfff"}',
        "application/json",
    ),
    (
        "invalid utf-8",
        b'{"user_id": "\xff\xfe", "agent_id": "a", "chat_id": "c", "message": "\xc3\x28"}',
        "application/json",
    ),
    (
        "NUL bytes",
        b'{"user_id": "u\\u0000x", "agent_id": "a\\u0000", "chat_id": "c", "message": "hi\\u0000"}',
        "application/json",
    ),
    ("not JSON", b"user_id=u&message=hi", "application/x-www-form-urlencoded"),
    ("truncated JSON", b'{"user_id": "u", "message": ', "application/json"),
    ("a JSON array", b"[1, 2, 3]", "application/json"),
    ("JSON null", b"null", "application/json"),
    ("empty body", b"", "application/json"),
    ("wrong content type", b'{"user_id": "u"}', "text/plain"),
    ("too large", b'{"message": "' + b"y" * 1_100_000 + b'"}', "application/json"),
]


@pytest.mark.parametrize(
    ("name", "body", "content_type"), HOSTILE_BODIES, ids=[b[0] for b in HOSTILE_BODIES]
)
def test_hand_written_hostile_bodies_get_a_problem_answer(
    live: LiveStack, name: str, body: bytes, content_type: str
) -> None:
    for node, path in V1:
        if path in ("/v1/day-log", "/v1/export"):
            continue  # a GET: its input is the query string (below)
        answer = httpx.post(
            live.url(node) + path,
            content=body,
            timeout=30,
            headers={**live.auth(), "Content-Type": content_type},
        )
        assert_answered_well(answer, f"{name} → {path}")
        assert answer.status_code in (400, 413, 415, 422), (name, path, answer.text[:300])
        if name == "too large":
            assert answer.status_code == 413, (path, answer.text[:300])


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"user_id": "u"},
        {"user_id": "u", "day": "not-a-day"},
        {"user_id": "u", "day": "2026-02-30"},
        {"user_id": "\x00", "day": "2026-01-01"},
        {"user_id": "u", "day": "2026-01-01", "tz": "Mars/Olympus"},
        {"user_id": "u" * 10_000, "day": "2026-01-01"},
    ],
)
def test_hostile_day_log_queries_get_a_problem_answer(live: LiveStack, query: dict) -> None:
    answer = httpx.get(
        live.url("reflection-writer") + "/v1/day-log", params=query, headers=live.auth(), timeout=30
    )
    assert_answered_well(answer, f"day-log {query!r:.100}")
    assert answer.status_code in (400, 422), answer.text[:300]


@pytest.mark.parametrize(
    "query",
    [{}, {"user_id": ""}, {"user_id": "\x00"}, {"user_id": "@shared"}, {"user_id": "u" * 10_000}],
)
def test_hostile_export_queries_get_a_problem_answer(live: LiveStack, query: dict) -> None:
    answer = httpx.get(
        live.url("memory-upserter") + "/v1/export", params=query, headers=live.auth(), timeout=30
    )
    assert_answered_well(answer, f"export {query!r:.100}")
    assert answer.status_code in (400, 422), answer.text[:300]


@given(st.text(min_size=1, max_size=300))
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_any_unicode_message_is_a_valid_turn_or_a_named_refusal(live_urls, text: str) -> None:
    """Free text from a person (emoji, RTL, control characters, combining marks)."""
    answer = httpx.post(
        live_urls["pulse-decay"] + "/v1/pulse",
        headers=live_urls["auth"],
        timeout=30,
        json={"user_id": "unicode-user", "agent_id": "deanna", "chat_id": "c1", "message": text},
    )
    assert_answered_well(answer, repr(text))


@pytest.fixture(scope="module")
def live_urls(live: LiveStack) -> dict:
    """Plain values for hypothesis-driven tests (function-scoped fixtures do not mix)."""
    return {**{n: live.url(n) for n in NODE_PORTS}, "auth": live.auth()}
