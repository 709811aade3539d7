"""Readiness judges each route by what it needs and what it serves on without."""

from __future__ import annotations

from services.core.readiness import RouteNeeds, judge
from services.nodes import node_spec

RETRIEVE = RouteNeeds("/v1/retrieve", frozenset({"postgres", "vectors", "embedder"}))
TURN = RouteNeeds(
    "/v1/turn", frozenset({"postgres", "vectors", "embedder", "redis"}), frozenset({"redis"})
)
ALL_OK = {"postgres": "ok", "vectors": "ok", "embedder": "ok", "redis": "ok"}


def test_every_store_answering_is_ready_with_nothing_degraded() -> None:
    verdict = judge(ALL_OK, [RETRIEVE, TURN])
    assert verdict.blocking is None and verdict.degraded == {}


def test_a_store_a_route_serves_without_degrades_that_route_only() -> None:
    verdict = judge({**ALL_OK, "redis": "ConnectionError: refused"}, [RETRIEVE, TURN])
    assert verdict.blocking is None
    assert verdict.degraded == {"/v1/turn": ["redis"]}


def test_a_store_some_route_cannot_do_without_blocks_the_node() -> None:
    down = {**ALL_OK, "postgres": "timed out after 1 s", "redis": "refused"}
    verdict = judge(down, [RETRIEVE, TURN])
    assert verdict.blocking == "postgres"
    assert verdict.degraded == {"/v1/turn": ["redis"]}


def test_a_route_that_spares_nothing_blocks_on_its_own_store() -> None:
    pulse = RouteNeeds("/v1/pulse", frozenset({"redis"}))
    assert judge({"redis": "refused"}, [pulse]).blocking == "redis"


def test_rag_gate_serves_retrieve_without_redis_and_the_turn_degraded() -> None:
    """The composed rag-gate (``services.nodes`` mounts the fast brain on it)."""
    routes = {route.path: route for route in node_spec("rag-gate").routes}
    assert set(routes) == {"/v1/retrieve", "/v1/turn"}
    assert "redis" not in routes["/v1/retrieve"].needs
    assert routes["/v1/turn"].spares == {"redis"}
    assert node_spec("pulse-decay").routes[0].spares == frozenset()
