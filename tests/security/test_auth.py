"""Bearer auth on every ``/v1`` route of every node, over real HTTP to ``twin up``."""

from __future__ import annotations

import httpx

from services.core import auth
from services.core.app import create_app
from services.core.settings import Settings
from services.nodes import node_spec
from tests.security.conftest import LiveStack, operations


def _call(
    stack: LiveStack, node: str, method: str, path: str, headers: dict[str, str]
) -> httpx.Response:
    return httpx.request(
        method,
        stack.url(node) + path,
        headers=headers,
        timeout=10,
        **({"json": {}} if method == "POST" else {}),
    )


def test_every_v1_route_refuses_a_missing_or_wrong_token(live: LiveStack) -> None:
    routes = [op for op in operations(live) if op[2].startswith("/v1/")]
    assert len(routes) >= 11, routes  # pulse … reindex: the six nodes' routes
    wrong = [
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": live.token},
        {"Authorization": f"Basic {live.token}"},
        {"Authorization": f"Bearer {live.token}x"},
        {"Authorization": f"bearer  {live.token}"},
    ]
    for node, method, path in routes:
        for headers in wrong:
            answer = _call(live, node, method, path, headers)
            assert answer.status_code == 401, (node, path, headers, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
            assert answer.json()["status"] == 401
            assert answer.headers["www-authenticate"].startswith("Bearer")
        allowed = _call(live, node, method, path, live.auth())
        assert allowed.status_code != 401, (node, path, allowed.text)


def test_health_readiness_version_and_openapi_stay_open(live: LiveStack) -> None:
    open_routes = [op for op in operations(live) if not op[2].startswith("/v1/")]
    assert {path for _, _, path in open_routes} >= {"/healthz", "/readyz", "/version"}
    for node, method, path in open_routes:
        answer = _call(live, node, method, path, {})
        assert answer.status_code == 200, (node, path, answer.text)
        schema = httpx.get(live.url(node) + "/schema/openapi.json", timeout=10)
        assert schema.status_code == 200


async def test_the_token_is_compared_in_constant_time(monkeypatch, app_client) -> None:
    """Every guarded request's header goes through hmac.compare_digest, right or wrong."""
    compared: list[tuple[bytes, bytes]] = []
    real = auth.hmac.compare_digest

    def spy(given: bytes, expected: bytes) -> bool:
        compared.append((given, expected))
        return real(given, expected)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    app = create_app(node_spec("envelope-validator"), Settings(node_token="s3cret"))
    async with app_client(app) as client:
        assert (await client.post("/v1/envelope", json={})).status_code == 401
        right = await client.post(
            "/v1/envelope", json={}, headers={"Authorization": "Bearer s3cret"}
        )
        assert right.status_code == 422
        assert (await client.get("/healthz")).status_code == 200
    assert compared == [(b"", b"Bearer s3cret"), (b"Bearer s3cret", b"Bearer s3cret")]


def test_no_secret_reaches_the_log(live: LiveStack) -> None:
    """Requests carrying the token (right and wrongly prefixed) and model calls that fail:
    neither the node token nor the model key is ever written."""
    for headers in (
        live.auth(),
        {"Authorization": live.token},
        {"Authorization": f"Bearer {live.token}", "X-Request-Id": live.token[:8]},
    ):
        httpx.post(
            live.url("pulse-decay") + "/v1/pulse",
            headers=headers,
            timeout=10,
            json={
                "user_id": "log-check",
                "agent_id": "deanna",
                "chat_id": "c",
                "message": f"my token is not {live.token[:4]}",
            },
        )
    # a commit with no plan asks the (unreachable) model: its key travels, never its log line
    httpx.post(
        live.url("memory-upserter") + "/v1/commit",
        headers=live.auth(),
        timeout=30,
        json={
            "user_id": "log-check",
            "agent_id": "deanna",
            "chat_id": "c",
            "turn_id": "t-log",
            "messages": [{"role": "user", "text": "I love tea"}],
        },
    )
    log = live.log()
    assert "/v1/commit" in log and "/v1/pulse" in log  # the log is the one we think
    assert live.token not in log
    assert live.model_key not in log
