"""The exported n8n workflows, checked without n8n: they import (the fields ``n8n
import:workflow`` needs), their connections name real nodes, every HTTP Request node calls a
route a node really serves — with a body its contract accepts — and nothing secret is inside.
They run on n8n's defaults (nothing reads ``$env``), retry nothing blindly (a 4xx is never
retried), report failures to the error workflow, and read well in the editor (notes on the
canvas, sticky notes, tags, pinned sample data).

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
from services.core.settings import NODE_PORTS, Settings
from services.nodes import node_spec
from tests.e2e.n8n import URL_SETTINGS

FOLDER = Path(__file__).resolve().parents[1] / "n8n-workflows"
FILES = sorted(p for p in FOLDER.glob("*.json") if not p.name.startswith("credentials"))
CREDENTIALS = json.loads((FOLDER / "credentials.example.json").read_text())
README = (FOLDER / "README.md").read_text()

URL_VARS = {field: node for node, field in URL_SETTINGS.items()}  # Settings field → node
NODE_URL = re.compile(
    r"^=\{\{\s*\$\('(?:Turn|Settings)'\)\.first\(\)\.json\.([a-z]+_url)\s*\}\}(/v1/[a-z0-9/-]+)$"
)
MODEL_URL = re.compile(
    r"^=\{\{\s*\$\('(?:Turn|Settings)'\)\.first\(\)\.json\.model_url\s*\}\}/chat/completions$"
)
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
    return [
        (name, node)
        for name, wf in WORKFLOWS.items()
        for node in wf["nodes"]
        if kind is None or node["type"] == kind
    ]


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


def test_the_workflows_are_there() -> None:
    assert {p.stem for p in FILES} == {
        "fast-brain",
        "fast-brain-one-call",
        "slow-brain",
        "forget",
        "knowledge-ingest",
        "commit-later",
        "errors",
        "persona-deanna",
        "persona-anaketa",
        "settings",
    }


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
    triggers = {
        n["name"]
        for n in wf["nodes"]
        if n["type"].lower().endswith("trigger")
        or n["type"] in ("n8n-nodes-base.webhook", "n8n-nodes-base.stickyNote")
    }
    assert triggers, "a workflow needs a trigger"
    assert names - triggers <= reached, f"nodes nothing leads to: {names - triggers - reached}"


def test_every_http_node_calls_a_node_route_or_the_model() -> None:
    """Each URL is ``{{ $('Settings'|'Turn').first().json.<node>_url }}/v1/…`` (a route in that
    node's OpenAPI, with the node's method) or the model endpoint ``…model_url
    }}/chat/completions``; the error workflow's alert goes wherever ``alert_url`` says."""
    for file, node in _nodes(HTTP):
        url = node["parameters"]["url"]
        if file == "errors.json":
            assert "alert_url" in url
            continue
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
    routes = {
        (service, route) for file, _, service, route in _node_calls() if file == "fast-brain.json"
    }
    assert routes == {
        ("pulse-decay", "/v1/pulse"),
        ("graph-hydrator", "/v1/hydrate"),
        ("rag-gate", "/v1/retrieve"),
        ("envelope-validator", "/v1/envelope"),
        ("memory-upserter", "/v1/commit"),
    }


def test_the_one_call_turn_is_the_fast_brain_with_memory_read_in_one_call() -> None:
    """The same nodes but the four reads, which become rag-gate's /v1/turn and a Switch on its
    ``next``; no node still names one of the four."""
    four, one = WORKFLOWS["fast-brain.json"], WORKFLOWS["fast-brain-one-call.json"]
    routes = {(svc, route) for f, _, svc, route in _node_calls() if f == "fast-brain-one-call.json"}
    assert routes == {("rag-gate", "/v1/turn"), ("memory-upserter", "/v1/commit")}
    reads = {"Pulse", "Replayed?", "Hydrate", "Pending question?", "Retrieve", "Envelope"}
    names = {n["name"] for n in four["nodes"]} - reads | {"Memory", "Next"}
    assert {n["name"] for n in one["nodes"]} == names
    text = json.dumps(one["nodes"])
    assert not [r for r in reads if f"$('{r}')" in text]
    memory = next(n for n in one["nodes"] if n["name"] == "Memory")
    assert "private_memory: t.private_memory" in memory["parameters"]["jsonBody"]
    # every other node is the four-node turn's, its memory reads renamed: one edit, two copies
    same = {n["name"]: n["parameters"] for n in four["nodes"]}
    for node in one["nodes"]:
        if node["name"] in ("Memory", "Next", "Webhook", "LLM", "Stored reply") or (
            node["type"] == "n8n-nodes-base.stickyNote"
        ):
            continue
        assert _four_node_reads(json.dumps(node["parameters"])) == json.dumps(same[node["name"]]), (
            node["name"]
        )


def _four_node_reads(text: str) -> str:
    """The one-call turn's expressions as the four-node turn writes them."""
    text = re.sub(
        r"\(\$\('Memory'\)\.isExecuted && !!\$\('Memory'\)\.first\(\)\.json\.(\w+)\)",
        lambda m: f"$('{m.group(1).capitalize()}').isExecuted",
        text,
    )
    return re.sub(
        r"\$\('Memory'\)\.first\(\)\.json\.(\w+)",
        lambda m: f"$('{m.group(1).capitalize()}').first().json",
        text,
    )


def test_node_calls_send_request_id_and_token_and_never_retry_blindly() -> None:
    """Every node call: X-Request-Id from the execution and the node token credential. n8n's
    "retry on fail" would retry a 4xx too, so no node uses it: a failure takes the node's
    error output, where only a network error, 5xx or 429 is retried (or answered around)."""
    token = next(c for c in CREDENTIALS if c["name"] == "Twin node token")
    for file, node, _, _ in _node_calls():
        where = f"{file}/{node['name']}"
        params = node["parameters"]
        headers = {h["name"]: h["value"] for h in params["headerParameters"]["parameters"]}
        assert "$execution.id" in headers.get("X-Request-Id", ""), where
        assert params["authentication"] == "genericCredentialType", where
        assert params["genericAuthType"] == "httpHeaderAuth", where
        assert node["credentials"]["httpHeaderAuth"]["id"] == token["id"], where
        assert 1_000 <= int(params["options"].get("timeout", 0)) <= 300_000, where
        if node.get("onError") == "continueRegularOutput":  # a sweep step that may fail
            continue
        assert node.get("onError") == "continueErrorOutput", where
        wf = WORKFLOWS[file]
        assert len(wf["connections"][node["name"]]["main"]) == 2, f"{where}: no error output"


def test_no_node_retries_on_fail() -> None:
    assert not [(f, n["name"]) for f, n in _nodes() if n.get("retryOnFail")]


def test_retry_decisions_never_retry_a_4xx() -> None:
    """Every "…down?" / "…retry?" / "Try again?" decision treats 4xx other than 429 as final."""
    deciders = [
        (f, n)
        for f, n in _nodes("n8n-nodes-base.if")
        if n["name"] in ("Memory down?", "Model retry?", "Commit down?", "Try again?")
    ]
    assert len(deciders) == 7  # the two Twin turns' three each, and commit later's
    for file, node in deciders:
        condition = node["parameters"]["conditions"]["conditions"][0]["leftValue"]
        assert "c >= 400 && c < 500 && c !== 429" in condition, (file, node["name"])


def _top_level_keys(
    body: str, start: str = r"(?:JSON\.stringify\(|=>)\s*\(?\s*\{"
) -> set[str] | None:
    """Keys of the object literal in ``{{ JSON.stringify({ a: …, b: … }) }}`` or
    ``(t => ({ a: … }))(…)``; None when the body is not such a literal (e.g. a passthrough of
    ``$json.commit``)."""
    match = re.search(start, body)
    if match is None:
        return None
    keys: set[str] = set()
    depth, quote, key, in_value = 0, "", "", False  # depth 0: directly inside the literal
    for char in body[match.end() :]:
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
        if keys is None and file == "fast-brain.json" and route == "/v1/commit":
            # the commit body is built with the answer (and kept for "commit later")
            for builder in ("Answer", "Fallback answer"):
                _check_keys(
                    _top_level_keys(_expression(file, builder), r"commit:\s*\{"),
                    service,
                    route,
                    f"{file}/{builder}",
                )
                checked += 1
            continue
        if keys is None:
            continue
        _check_keys(keys, service, route, f"{file}/{node['name']}")
        checked += 1
    assert checked >= 8


def _expression(file: str, node_name: str) -> str:
    node = next(
        n
        for n in WORKFLOWS.get(file, WORKFLOWS["fast-brain.json"])["nodes"]
        if n["name"] == node_name
    )
    return node["parameters"]["jsonOutput"]


def _check_keys(keys: set[str] | None, service: str, route: str, where: str) -> None:
    assert keys, f"{where}: no body literal found"
    schema = _request_schema(service, route)
    where = f"{where} → {service} {route}"
    unknown = keys - set(schema["properties"])
    assert not unknown, f"{where}: fields the contract does not have: {unknown}"
    assert set(schema.get("required", [])) <= keys, (
        f"{where}: missing {set(schema['required']) - keys}"
    )


def test_the_key_parser_reads_object_literals() -> None:
    body = (
        "={{ JSON.stringify({ user_id: $('Turn').first().json.user_id, a: f({ x: 1 }), "
        "b: [1, { y: 2 }], 'c': 's: t', now: $json.now || null }) }}"
    )
    assert _top_level_keys(body) == {"user_id", "a", "b", "c", "now"}


def test_no_code_nodes_glue_the_nodes() -> None:
    assert not [
        n for _, n in _nodes() if n["type"] in ("n8n-nodes-base.code", "n8n-nodes-base.function")
    ]


def test_webhooks_need_the_secret_and_have_unique_paths() -> None:
    hooks = _nodes("n8n-nodes-base.webhook")
    assert len(hooks) == 5
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


def test_readme_documents_every_setting_and_route() -> None:
    """Every Settings field the workflows have, and every route they call, is in the README."""
    for _, node in _nodes("n8n-nodes-base.set"):
        if node["name"] == "Settings":
            for field in node["parameters"]["assignments"]["assignments"]:
                assert f"`{field['name']}`" in README, f"README does not mention {field['name']}"
    for _, _, service, route in _node_calls():
        assert route in README and service in README, route


def test_urls_come_from_all_six_settings() -> None:
    used = {
        URL_VARS[NODE_URL.match(n["parameters"]["url"]).group(1)] for _, n, _, _ in _node_calls()
    }
    assert used == set(NODE_PORTS)


def test_settings_live_in_one_place() -> None:
    """One Set node holds every URL and option; every other workflow's "Settings" calls that
    workflow on each run, so an edit (and its publish) reaches every workflow, a waiting commit
    later's next try included."""
    holders = [(f, n) for f, n in _nodes("n8n-nodes-base.set") if n["name"] == "Settings"]
    assert [f for f, _ in holders] == ["settings.json"]
    fields = [a["name"] for a in holders[0][1]["parameters"]["assignments"]["assignments"]]
    assert len(fields) == len(set(fields)) and "memory_url" in fields
    settings_id = WORKFLOWS["settings.json"]["id"]
    for file, wf in WORKFLOWS.items():
        callers = [n for n in wf["nodes"] if n["name"] == "Settings"]
        if file == "settings.json" or not callers:
            continue
        (call,) = callers
        assert call["type"] == "n8n-nodes-base.executeWorkflow", file
        assert call["parameters"]["workflowId"]["value"] == settings_id, file
        assert call["parameters"]["options"]["waitForSubWorkflow"] is True, file
    later = WORKFLOWS["commit-later.json"]["connections"]
    assert {"node": "Settings", "type": "main", "index": 0} in later["Wait"]["main"][0]


def test_nothing_reads_the_environment() -> None:
    """n8n's default blocks ``$env`` in nodes: the workflows must not need it."""
    for path in FILES:
        assert "$env" not in path.read_text(), path.name


def test_every_workflow_reports_failures_to_the_error_workflow() -> None:
    errors = WORKFLOWS["errors.json"]
    assert any(n["type"] == "n8n-nodes-base.errorTrigger" for n in errors["nodes"])
    for file, wf in WORKFLOWS.items():
        if file != "errors.json":
            assert wf["settings"].get("errorWorkflow") == errors["id"], file


def test_designers_can_read_the_flows_in_the_editor() -> None:
    """Tags, a sticky note, notes shown on the canvas, pinned sample data on a trigger."""
    for file, wf in WORKFLOWS.items():
        assert "twin-core" in {t["name"] for t in wf["tags"]}, file
        assert all(t.get("id") for t in wf["tags"]), f"{file}: tag ids keep one import whole"
        stickies = [n for n in wf["nodes"] if n["type"] == "n8n-nodes-base.stickyNote"]
        assert stickies and all(s["parameters"]["content"].strip() for s in stickies), file
        for node in wf["nodes"]:
            if node.get("notes"):
                assert node.get("notesInFlow") is True, f"{file}/{node['name']}"
        triggers = {
            n["name"]
            for n in wf["nodes"]
            if n["type"].lower().endswith("trigger") or n["type"] == "n8n-nodes-base.webhook"
        }
        assert set(wf["pinData"]) & triggers, f"{file}: no pinned sample input"


def _personas() -> list[dict[str, Any]]:
    return [wf for name, wf in WORKFLOWS.items() if name.startswith("persona-")]


def test_a_persona_is_one_small_workflow_calling_the_shared_turn() -> None:
    """Adding a persona = copying one of these (trigger → Persona → Twin turn → Send reply)
    and giving it its own Telegram credential; the shared turn is not edited."""
    turn = WORKFLOWS["fast-brain.json"]["id"]
    agents, credentials, hooks = set(), set(), set()
    for wf in _personas():
        nodes = {n["name"]: n for n in wf["nodes"] if n["type"] != "n8n-nodes-base.stickyNote"}
        assert set(nodes) == {
            "Telegram Trigger",
            "Persona",
            "Twin turn",
            "Send reply",
            "Turn failed",
        }
        assert nodes["Twin turn"].get("onError") == "continueErrorOutput", "one incident, not two"
        assert nodes["Twin turn"]["parameters"]["workflowId"]["value"] == turn
        fields = {
            a["name"]: a["value"]
            for a in nodes["Persona"]["parameters"]["assignments"]["assignments"]
        }
        assert set(fields) == {"agent_id", "bot_username", "persona_prompt", "group_memory"}
        assert fields["group_memory"] is False, "private memory stays out of groups by default"
        agents.add(fields["agent_id"])
        trigger, send = nodes["Telegram Trigger"], nodes["Send reply"]
        assert trigger["credentials"] == send["credentials"], "one bot answers its own chats"
        credentials.add(trigger["credentials"]["telegramApi"]["id"])
        hooks.add(trigger["webhookId"])
        assert "userIds" in trigger["parameters"]["additionalFields"], "the allow-list"
        assert send["parameters"]["additionalFields"]["parse_mode"] == "HTML"
        assert send["parameters"]["additionalFields"]["appendAttribution"] is False
    assert len(agents) == len(credentials) == len(hooks) == len(_personas()) >= 2


def test_webhook_ids_never_collide() -> None:
    """A duplicated trigger keeps its webhookId: n8n refuses to publish the copy."""
    ids = [n["webhookId"] for _, n in _nodes() if n.get("webhookId")]
    assert len(ids) == len(set(ids))
