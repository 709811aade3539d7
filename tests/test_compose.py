"""compose.yaml (and the compose.scale.yaml override), validated statically — no Docker engine
runs here: every node service is the one image serving its own node on its own port with a
readiness healthcheck and only settings the nodes read; n8n runs on its defaults (the workflows
read no environment variable; their Settings nodes default to these service names and ports);
the scale override runs n8n in queue mode with workers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.core.settings import NODE_PORTS, env_table
from tests.e2e.n8n import URL_SETTINGS

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
SCALE = yaml.safe_load((ROOT / "compose.scale.yaml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
SETTINGS_VARS = {var for var, _, _ in env_table()}
WORKFLOW_TEXT = "\n".join(p.read_text() for p in sorted((ROOT / "n8n-workflows").glob("*.json")))
WORKFLOWS = [
    json.loads(p.read_text())
    for p in sorted((ROOT / "n8n-workflows").glob("*.json"))
    if not p.name.startswith("credentials")
]
WORKFLOW_IDS = [
    json.loads(p.read_text())["id"]
    for p in sorted((ROOT / "n8n-workflows").glob("*.json"))
    if not p.name.startswith("credentials")
]
INTERPOLATED = re.compile(r"^\$\{[A-Z0-9_]+(:?[-?][^}]*)?\}$")
N8N_VERSION = re.search(
    r'N8N_VERSION="\$\{TWIN_N8N_VERSION:-([0-9.]+)\}"',
    (ROOT / "tools" / "n8n" / "install.sh").read_text(),
).group(1)


def _env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: str(value) for key, value in env.items()}


@pytest.mark.parametrize("node", sorted(NODE_PORTS))
def test_node_service_serves_its_node(node: str) -> None:
    service = SERVICES[node]
    port = NODE_PORTS[node]
    assert service["image"] == SERVICES["migrate"]["image"] == "twin-core:latest"
    assert service["build"] == "."
    assert service["command"] == ["serve", node]  # ENTRYPOINT twin → `twin serve <node>`
    assert str(port) in [str(p) for p in service.get("expose", [])]
    assert "ports" not in service, "host ports would stop compose.scale.yaml's replicas"
    probe = " ".join(service["healthcheck"]["test"])
    assert f"http://127.0.0.1:{port}/readyz" in probe


@pytest.mark.parametrize("node", sorted(NODE_PORTS))
def test_node_env_is_what_settings_reads(node: str) -> None:
    env = _env(SERVICES[node])
    assert set(env) <= SETTINGS_VARS, f"not read by Settings: {set(env) - SETTINGS_VARS}"
    assert env["TWIN_HOST"] == "0.0.0.0"
    assert env["QDRANT_URL"].startswith("http://qdrant:"), "separate processes share a server"
    assert "@postgres:5432/" in env["DATABASE_URL"]
    assert env["REDIS_URL"].startswith("redis://redis:6379/")
    assert INTERPOLATED.match(env["TWIN_NODE_TOKEN"]), "the token comes from the environment"
    assert SERVICES[node]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_image_entrypoint_is_twin() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["twin"]' in dockerfile
    assert SERVICES["migrate"]["command"] == ["migrate"]


def test_secrets_are_never_literal() -> None:
    for name, service in {**SERVICES, **SCALE["services"]}.items():
        for key, value in _env(service).items():
            if re.search(r"(KEY|TOKEN|PASSWORD|SECRET)$", key):
                assert INTERPOLATED.match(value), f"{name}.{key} holds a literal secret"


def _check_n8n_env(env: dict[str, str], where: str) -> None:
    assert "$env" not in WORKFLOW_TEXT
    for default_changed in ("N8N_BLOCK_ENV_ACCESS_IN_NODE", "N8N_EXPRESSION_ENGINE"):
        assert default_changed not in env, f"{where}: {default_changed} left at n8n's default"
    assert not [k for k in env if k.startswith("TWIN_")], f"{where}: the workflows read no env"
    assert env["DB_TYPE"] == "postgresdb"
    assert INTERPOLATED.match(env["N8N_ENCRYPTION_KEY"])


def test_the_workflows_settings_default_to_the_compose_services() -> None:
    """Imported as they are, the workflows reach every node by its compose service name."""
    seen = set()
    for workflow in WORKFLOWS:
        for node in workflow["nodes"]:
            if node["name"] != "Settings" or node["type"] != "n8n-nodes-base.set":
                continue
            values = {
                a["name"]: a["value"] for a in node["parameters"]["assignments"]["assignments"]
            }
            for service, field in URL_SETTINGS.items():
                if field in values:
                    assert values[field] == f"http://{service}:{NODE_PORTS[service]}", field
                    seen.add(service)
    assert seen == set(NODE_PORTS)


def test_n8n_runs_on_its_defaults() -> None:
    n8n = SERVICES["n8n"]
    assert n8n["image"] == f"n8nio/n8n:{N8N_VERSION}", "same n8n as tools/n8n/install.sh"
    _check_n8n_env(_env(n8n), "n8n")
    assert "./n8n-workflows:/workflows:ro" in n8n["volumes"]
    for node in NODE_PORTS:
        assert n8n["depends_on"][node]["condition"] == "service_healthy"


def test_the_import_job_imports_and_publishes_every_workflow() -> None:
    job = SERVICES["n8n-import"]
    assert job["profiles"] == ["setup"], "importing overwrites edits: never on every start"
    assert job["image"] == SERVICES["n8n"]["image"]
    script = " ".join(job["command"])
    assert "import:workflow --separate --input=/workflows" in script
    for workflow_id in WORKFLOW_IDS:
        assert workflow_id in script
    assert "./n8n-workflows:/workflows:ro" in job["volumes"]


def test_scale_runs_n8n_in_queue_mode_with_workers() -> None:
    services = SCALE["services"]
    main = _env(services["n8n"])
    assert main["EXECUTIONS_MODE"] == "queue" and main["QUEUE_BULL_REDIS_HOST"] == "redis"
    worker = services["n8n-worker"]
    assert worker["image"] == SERVICES["n8n"]["image"]
    assert worker["command"][0] == "worker"
    assert worker["deploy"]["replicas"] >= 2
    env = _env(worker)
    _check_n8n_env(env, "n8n-worker")
    assert env["EXECUTIONS_MODE"] == "queue"
    assert env["N8N_ENCRYPTION_KEY"] == _env(SERVICES["n8n"])["N8N_ENCRYPTION_KEY"]
    for key in ("DB_POSTGRESDB_HOST", "DB_POSTGRESDB_DATABASE", "DB_POSTGRESDB_SCHEMA"):
        assert env[key] == _env(SERVICES["n8n"])[key], key
    node_db = _env(SERVICES["pulse-decay"])["REDIS_URL"].rsplit("/", 1)[1]
    assert main["QUEUE_BULL_REDIS_DB"] != node_db, "Bull must not share the nodes' Redis db"


def test_scale_replicates_every_node() -> None:
    for node in NODE_PORTS:
        assert SCALE["services"][node]["deploy"]["replicas"] >= 2, node
    assert set(SCALE["services"]) <= set(SERVICES) | {"n8n-worker"}
