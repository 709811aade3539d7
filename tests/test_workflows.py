"""The exported n8n workflows, checked without n8n: they import (the fields ``n8n
import:workflow`` needs), their connections name real nodes, every HTTP Request node calls a
route a node really serves — with a body its contract accepts — and nothing secret is inside.

The E2E test (``tests/e2e``) imports and runs the same files in a real n8n.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from services.core.app import create_app
from services.core.nodes import node_spec
from services.core.settings import NODE_PORTS, Settings
from tests.e2e.n8n import URL_VARS as NODE_URL_VARS

FOLDER = Path(__file__).resolve().parents[1] / "n8n-workflows"
FILES = sorted(p for p in FOLDER.glob("*.json") if not p.name.startswith("credentials"))
CREDENTIALS = json.loads((FOLDER / "credentials.example.json").read_text())
README = (FOLDER / "README.md").read_text()

URL_VARS = {var: node for node, var in NODE_URL_VARS.items()}  # env var → node
NODE_URL = re.compile(r"^=\{\{\s*\$env\.(TWIN_[A-Z]+_URL)\s*\}\}(/v1/[a-z0-9/-]+)$")
MODEL_URL = re.compile(r"^=\{\{\s*\$env\.OPENAI_BASE_URL\b.*\}\}/chat/completions$")
SECRET_PATTERNS = {
    "bearer token": re.compile(r"Bearer\s+(?!CHANGE-ME)[A-Za-z0-9._~+/-]{12,}"),
    "OpenAI-style key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "Telegram bot token": re.compile(r"\b\d{6,12}:[A-Za-z0-9_-]{30,}"),
}
HTTP = "n8n-nodes-base.httpRequest"


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


WORKFLOWS = {p.name: _load(p) for p in FILES}


def _nodes(kind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    return [(name, node) for name, wf in WORKFLOWS.items() for node in wf["nodes"]
            if kind is None or node["type"] == kind]


def _node_calls() -> list[tuple[str, dict[str, Any], str, str]]:
    """(file, node, node name, route) for every HTTP Request node calling a Twin Core node."""
    calls = []
    for file, node in _nodes(HTTP):
        match = NODE_URL.match(node["parameters"]["url"])
        if match:
            calls.append((file, node, URL_VARS[match.group(1)], match.group(2)))
    return calls


@functools.cache
def _openapi(node: str) -> dict[str, Any]:
    return create_app(node_spec(node), Settings()).openapi_schema.to_schema()


def test_the_four_workflows_are_there() -> None:
    assert {p.stem for p in FILES} == {"fast-brain", "slow-brain", "forget", "knowledge-ingest"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_workflow_has_what_import_needs(path: Path) -> None:
    """``n8n import:workflow`` needs name, nodes and connections; ids keep re-imports stable."""
    wf = _load(path)
    assert isinstance(wf, dict) and wf["name"] and wf["id"]
    assert isinstance(wf["nodes"], list) and wf["nodes"]
    assert isinstance(wf["connections"], dict)
    assert wf.get("settings", {}).get("executionOrder") == "v1"
    for node in wf["nodes"]:
        for key in ("id", "name", "type", "typeVersion", "position", "parameters"):
            assert key in node, (node.get("name"), key)
        assert node["type"].startswith("n8n-nodes-base."), node["type"]
    names = [n["name"] for n in wf["nodes"]]
    assert len(names) == len(set(names)), "node names must be unique (connections use them)"
    assert len({n["id"] for n in wf["nodes"]}) == len(names)


def test_workflow_ids_are_unique() -> None:
    ids = [wf["id"] for wf in WORKFLOWS.values()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_connections_name_existing_nodes(path: Path) -> None:
    wf = _load(path)
    names = {n["name"] for n in wf["nodes"]}
    reached = set()
    for source, outputs in wf["connections"].items():
        assert source in names, f"connection from unknown node {source!r}"
        for output in outputs["main"]:
            for target in output:
                assert target["node"] in names, f"{source} → unknown node {target['node']!r}"
                assert target["type"] == "main"
                reached.add(target["node"])
    triggers = {n["name"] for n in wf["nodes"] if n["type"].lower().endswith("trigger")
                or n["type"] == "n8n-nodes-base.webhook"}
    assert triggers, "a workflow needs a trigger"
    assert names - triggers <= reached, f"nodes nothing leads to: {names - triggers - reached}"


def test_every_http_node_calls_a_node_route_or_the_model() -> None:
    """Each URL is ``{{ $env.TWIN_…_URL }}/v1/…`` (a route in that node's OpenAPI, with the
    node's method) or the model endpoint ``{{ $env.OPENAI_BASE_URL … }}/chat/completions``."""
    for file, node in _nodes(HTTP):
        url = node["parameters"]["url"]
        match = NODE_URL.match(url)
        if match is None:
            assert MODEL_URL.match(url), f"{file}/{node['name']}: {url!r} is not a node route"
            continue
        service, route = URL_VARS[match.group(1)], match.group(2)
        paths = _openapi(service)["paths"]
        assert route in paths, f"{file}/{node['name']}: {service} has no {route}"
        method = node["parameters"].get("method", "GET").lower()
        assert method in paths[route], f"{file}/{node['name']}: {route} takes no {method}"


def test_fast_brain_calls_the_whole_chain() -> None:
    routes = {(service, route) for file, _, service, route in _node_calls()
              if file == "fast-brain.json"}
    assert routes == {("pulse-decay", "/v1/pulse"), ("graph-hydrator", "/v1/hydrate"),
                      ("rag-gate", "/v1/retrieve"), ("envelope-validator", "/v1/envelope"),
                      ("memory-upserter", "/v1/commit")}


def test_node_calls_send_request_id_token_and_retry() -> None:
    """Every node call: X-Request-Id from the execution, the node token credential, and retry
    on fail with a sane wait (safe: every node write is idempotent)."""
    token = next(c for c in CREDENTIALS if c["name"] == "Twin node token")
    for file, node, _, _ in _node_calls():
        where = f"{file}/{node['name']}"
        params = node["parameters"]
        headers = {h["name"]: h["value"] for h in params["headerParameters"]["parameters"]}
        assert "$execution.id" in headers.get("X-Request-Id", ""), where
        assert params["authentication"] == "genericCredentialType", where
        assert params["genericAuthType"] == "httpHeaderAuth", where
        assert node["credentials"]["httpHeaderAuth"]["id"] == token["id"], where
        assert node.get("retryOnFail") is True, where
        assert 2 <= node.get("maxTries", 3) <= 5, where
        assert 500 <= node.get("waitBetweenTries", 1000) <= 10_000, where
        assert 1_000 <= params["options"].get("timeout", 0) <= 300_000, where


def _top_level_keys(body: str) -> set[str] | None:
    """Keys of the object literal in ``{{ JSON.stringify({ a: …, b: … }) }}``; None when the
    body is not such a literal (e.g. a passthrough of ``$json.body``)."""
    match = re.search(r"JSON\.stringify\(\s*\{", body)
    if match is None:
        return None
    keys: set[str] = set()
    depth, quote, key, in_value = 0, "", "", False  # depth 0: directly inside the literal
    for char in body[match.end():]:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"`":
            quote = char
        elif char in "({[":
            depth += 1
        elif char in ")}]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and char == ",":
            key, in_value = "", False
            continue
        elif depth == 0 and char == ":" and not in_value:
            keys.add(key.strip().strip("'\""))
            in_value = True
            continue
        if not in_value:
            key += char
    return keys


def _request_schema(service: str, route: str) -> dict[str, Any]:
    spec = _openapi(service)
    body = spec["paths"][route]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = body["$ref"].rsplit("/", 1)[-1]
    return spec["components"]["schemas"][name]


def test_node_call_bodies_match_the_request_contracts() -> None:
    """The fields a workflow sends exist in the node's request schema, and every required one
    is sent: a renamed contract field fails here, not in production."""
    checked = 0
    for file, node, service, route in _node_calls():
        keys = _top_level_keys(node["parameters"]["jsonBody"])
        if keys is None:
            continue
        schema = _request_schema(service, route)
        where = f"{file}/{node['name']} → {service} {route}"
        unknown = keys - set(schema["properties"])
        assert not unknown, f"{where}: fields the contract does not have: {unknown}"
        assert set(schema.get("required", [])) <= keys, \
            f"{where}: missing {set(schema['required']) - keys}"
        checked += 1
    assert checked >= 6


def test_the_key_parser_reads_object_literals() -> None:
    body = "={{ JSON.stringify({ user_id: $('Turn').first().json.user_id, a: f({ x: 1 }), " \
           "b: [1, { y: 2 }], 'c': 's: t', now: $json.now || null }) }}"
    assert _top_level_keys(body) == {"user_id", "a", "b", "c", "now"}


def test_no_code_nodes_glue_the_nodes() -> None:
    assert not [n for _, n in _nodes() if n["type"] in ("n8n-nodes-base.code",
                                                        "n8n-nodes-base.function")]


def test_webhooks_need_the_secret_and_have_unique_paths() -> None:
    hooks = _nodes("n8n-nodes-base.webhook")
    assert len(hooks) == 4
    paths = [n["parameters"]["path"] for _, n in hooks]
    assert len(paths) == len(set(paths))
    secret = next(c for c in CREDENTIALS if c["name"] == "Twin webhook secret")
    for file, node in hooks:
        assert node["parameters"]["authentication"] == "headerAuth", file
        assert node["credentials"]["httpHeaderAuth"]["id"] == secret["id"], file
        assert node.get("webhookId"), file


def test_credentials_are_referenced_by_the_example_ids() -> None:
    known = {(c["type"], c["id"], c["name"]) for c in CREDENTIALS}
    used = set()
    for file, node in _nodes():
        for kind, ref in node.get("credentials", {}).items():
            key = ("httpHeaderAuth" if kind == "httpHeaderAuth" else kind, ref["id"], ref["name"])
            assert key in known, f"{file}/{node['name']}: {key} not in credentials.example.json"
            used.add(key)
    assert used == known


def test_sub_workflow_calls_point_at_shipped_workflows() -> None:
    ids = {wf["id"] for wf in WORKFLOWS.values()}
    calls = _nodes("n8n-nodes-base.executeWorkflow")
    assert calls
    for file, node in calls:
        assert node["parameters"]["workflowId"]["value"] in ids, file


def test_no_secrets_in_workflows_or_the_credentials_example() -> None:
    for path in [*FILES, FOLDER / "credentials.example.json"]:
        text = path.read_text()
        for what, pattern in SECRET_PATTERNS.items():
            assert not pattern.search(text), f"{path.name}: looks like a {what}"
    for wf in WORKFLOWS.values():
        for node in wf["nodes"]:
            for ref in node.get("credentials", {}).values():
                assert set(ref) == {"id", "name"}, "only references, never credential data"
    for credential in CREDENTIALS:
        secretish = [v for k, v in credential["data"].items() if k in ("value", "accessToken")]
        assert all("CHANGE-ME" in v for v in secretish), credential["name"]


def test_readme_documents_every_variable_and_route() -> None:
    """Every $env variable the workflows read, and every route they call, is in the README."""
    text = "\n".join(p.read_text() for p in FILES)
    for var in sorted(set(re.findall(r"\$env\.([A-Z0-9_]+)", text))):
        assert var in README, f"n8n-workflows/README.md does not mention {var}"
    for _, _, service, route in _node_calls():
        assert route in README and service in README, route


def test_urls_come_from_all_six_variables() -> None:
    used = {URL_VARS[NODE_URL.match(n["parameters"]["url"]).group(1)]
            for _, n, _, _ in _node_calls()}
    assert used == set(NODE_PORTS)
