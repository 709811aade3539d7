"""Issue 31, item 7: no open node beyond loopback, and no DNS rebinding of a tokenless node."""

from __future__ import annotations

import httpx
import pytest
from litestar import Litestar, get
from structlog.testing import capture_logs

from services.cli import _may_expose, main
from services.core.exposure import (
    exposure_refusal,
    host_check,
    host_name,
    is_open_beyond_loopback,
)
from services.core.host import server
from services.core.settings import Settings

pytestmark = pytest.mark.pure


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost"])
def test_loopback_with_no_token_may_start(host: str) -> None:
    assert exposure_refusal(Settings(host=host)) is None


def test_beyond_loopback_with_no_token_is_refused_naming_the_settings() -> None:
    refusal = exposure_refusal(Settings(host="0.0.0.0"))
    assert refusal is not None
    assert "TWIN_NODE_TOKEN" in refusal and "TWIN_HOST=0.0.0.0" in refusal
    assert "\n" not in refusal


def test_a_token_or_the_override_lets_it_start_and_only_the_override_is_open() -> None:
    with_token = Settings(host="0.0.0.0", node_token="t")
    overridden = Settings(host="0.0.0.0", allow_open=True)
    assert exposure_refusal(with_token) is None and not is_open_beyond_loopback(with_token)
    assert exposure_refusal(overridden) is None and is_open_beyond_loopback(overridden)


@pytest.mark.parametrize("command", [["up"], ["serve", "rag-gate"]])
def test_twin_exits_non_zero_in_one_line_before_any_store_starts(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TWIN_HOST", "0.0.0.0")
    monkeypatch.delenv("TWIN_NODE_TOKEN", raising=False)
    monkeypatch.delenv("TWIN_ALLOW_OPEN", raising=False)
    assert main(command) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "TWIN_NODE_TOKEN" in err and err.startswith("twin ")


@pytest.mark.parametrize(
    ("header", "name"),
    [
        (b"127.0.0.1:8101", "127.0.0.1"),
        (b"[::1]:8101", "::1"),
        (b"LocalHost", "localhost"),
        (b"memory-upserter:8106", "memory-upserter"),
        (b"::1", "::1"),
    ],
)
def test_host_name_drops_the_port_and_brackets(header: bytes, name: str) -> None:
    assert host_name(header) == name


@get("/v1/ping", sync_to_thread=False)
def ping() -> dict[str, str]:
    return {"ok": "yes"}


async def _status(settings: Settings, url: str) -> httpx.Response:
    app = host_check(settings, Litestar([ping]))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport) as client:
        return await client.get(url)


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8101/v1/ping", "http://localhost:8101/v1/ping", "http://[::1]/v1/ping"],
)
async def test_loopback_names_pass_with_no_token(url: str) -> None:
    assert (await _status(Settings(), url)).status_code == 200


async def test_a_rebound_name_gets_421_problem_naming_the_host_header() -> None:
    answer = await _status(Settings(), "http://attacker.example:8101/v1/ping")
    assert answer.status_code == 421
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["status"] == 421 and "Host header" in problem["detail"]
    assert "attacker.example" in problem["detail"] and "TWIN_ALLOWED_HOSTS" in problem["detail"]


async def test_twin_host_and_the_allowed_hosts_pass() -> None:
    settings = Settings(host="0.0.0.0", allow_open=True, allowed_hosts="twin.lan, 192.168.1.20")
    for url in ("http://twin.lan:8101/v1/ping", "http://192.168.1.20:8101/v1/ping"):
        assert (await _status(settings, url)).status_code == 200
    assert (await _status(settings, "http://other.lan/v1/ping")).status_code == 421


async def test_with_a_token_compose_service_names_pass() -> None:
    settings = Settings(host="0.0.0.0", node_token="t")
    answer = await _status(settings, "http://memory-upserter:8106/v1/ping")
    assert answer.status_code == 200


def test_the_override_starts_with_a_warning_naming_the_host() -> None:
    with capture_logs() as logs:
        assert _may_expose(Settings(host="0.0.0.0", allow_open=True), "up")
    assert [(e["event"], e["log_level"], e["host"]) for e in logs] == [
        ("open_beyond_loopback", "warning", "0.0.0.0")
    ]


def test_the_server_twin_runs_checks_the_host_only_without_a_token() -> None:
    app = Litestar([ping])
    # under the drain's /readyz (services.core.drain), which every server has
    assert server(app, Settings()).config.app.app is not app
    assert server(app, Settings(node_token="t")).config.app.app is app
