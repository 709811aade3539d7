"""Drive a real n8n through the project's own scripts (``tools/n8n``): install, import, publish,
serve headless and offline, and read back why an execution failed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx

from tests.e2e.processes import Process, free_port, run

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "tools" / "n8n" / "install.sh"
N8N = REPO / "tools" / "n8n" / "n8n.sh"
WORKFLOWS = REPO / "n8n-workflows"
# Ports for n8n (server, task broker, worker): TWIN_E2E_N8N_PORTS="5690-5699", else any free one.
N8N_PORTS = os.environ.get("TWIN_E2E_N8N_PORTS", "")
# install.sh's exit codes when n8n cannot be installed here: the E2E skips on these two only
NPM_MISSING = 69
REGISTRY_UNREACHABLE = 75
# The field of the workflows' "Settings" node that holds each node's base URL.
URL_SETTINGS = {
    "pulse-decay": "pulse_url",
    "graph-hydrator": "hydrate_url",
    "rag-gate": "retrieve_url",
    "envelope-validator": "envelope_url",
    "reflection-writer": "reflect_url",
    "memory-upserter": "memory_url",
}


class RegistryUnreachable(RuntimeError):
    """n8n is not installed and the npm registry cannot be reached to install it."""


class NpmMissing(RuntimeError):
    """n8n is not installed and there is no npm on this machine to install it with."""


def install(
    timeout: float = 1_800,
    progress: Callable[[str], None] = lambda _line: None,
    env: dict[str, str] | None = None,
) -> tuple[Path, float]:
    """Run ``tools/n8n/install.sh``, each of its progress lines to ``progress`` as it comes;
    the install folder and the seconds it took."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [str(INSTALL)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stderr is not None and proc.stdout is not None
    said: list[str] = []
    for line in proc.stderr:  # the script writes its steps to stderr, its answer to stdout
        said.append(line)
        progress(line.rstrip())
    out = proc.stdout.read()
    code = proc.wait(timeout=max(1.0, timeout - (time.monotonic() - started)))
    stderr = "".join(said)
    if code == NPM_MISSING:
        raise NpmMissing(stderr.strip()[-1000:])
    if code == REGISTRY_UNREACHABLE:
        raise RegistryUnreachable(stderr.strip()[-1000:])
    if code != 0:
        raise RuntimeError(f"tools/n8n/install.sh failed ({code}):\n{stderr[-4000:]}")
    return Path(out.strip().splitlines()[-1]), time.monotonic() - started


def workflow_files() -> list[Path]:
    return sorted(p for p in WORKFLOWS.glob("*.json") if not p.name.startswith("credentials"))


class N8nInstance:
    """One throwaway n8n on n8n's defaults (default expression engine, env access blocked): its
    own user folder, port and task-broker port; SQLite, or — with ``queue`` — Postgres and
    queue mode with one worker, as compose deploys it."""

    def __init__(self, folder: Path, env: dict[str, str], queue: Queue | None = None) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port(N8N_PORTS)
        self.url = f"http://127.0.0.1:{self.port}"
        self.queue = queue
        base = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("N8N_", "DB_", "QUEUE_", "EXECUTIONS_"))
        }
        self.env = {
            **base,
            **env,
            "N8N_USER_FOLDER": str(folder / "user"),
            "N8N_PORT": str(self.port),
            "WEBHOOK_URL": f"{self.url}/",
            "N8N_RUNNERS_BROKER_PORT": str(free_port(N8N_PORTS)),
            "N8N_LOG_LEVEL": env.get("N8N_LOG_LEVEL", "info"),
        }
        if queue is not None:
            self.env.update(queue.env())
        self.server: Process | None = None
        self.worker: Process | None = None
        self.worker_ports = (free_port(N8N_PORTS), free_port(N8N_PORTS)) if queue else (0, 0)
        self.timings: dict[str, float] = {}

    # --- CLI -------------------------------------------------------------------------------

    def cli(self, *args: str, timeout: float = 180) -> str:
        done = run([N8N, *args], self.env, timeout, f"n8n {args[0]}")
        return done.stdout

    def import_all(
        self, workflows: list[dict[str, Any]], credentials: list[dict[str, Any]]
    ) -> None:
        """Credentials, then every workflow: one CLI call each (the first one migrates)."""
        started = time.monotonic()
        creds, flows = self.folder / "credentials.json", self.folder / "workflows.json"
        creds.write_text(json.dumps(credentials))
        flows.write_text(json.dumps(workflows))
        self.cli("import:credentials", f"--input={creds}")
        self.cli("import:workflow", f"--input={flows}")
        creds.unlink()  # it held the test's secrets in clear
        self.timings["import"] = time.monotonic() - started

    def publish_in_db(self, workflow_ids: list[str]) -> None:
        """What ``publish:workflow --id=…`` does (n8n's ``WorkflowRepository.publishVersion``:
        the current version becomes the active one), for all at once before the server starts:
        one SQL statement instead of a 5–8 s CLI start per workflow."""
        started = time.monotonic()
        marks = ", ".join(f"'{wid}'" for wid in workflow_ids if wid.isalnum())
        sql = (
            f"UPDATE workflow_entity SET active = {'true' if self.queue else '1'}, "
            f'"activeVersionId" = "versionId" WHERE id IN ({marks})'
        )
        if self.queue is not None:
            self.queue.fetch(sql)
        else:
            database = self.folder / "user" / ".n8n" / "database.sqlite"
            with sqlite3.connect(database, timeout=10) as conn:
                conn.execute(sql)
        self.timings["publish"] = time.monotonic() - started

    def publish(self, workflow_ids: list[str]) -> None:
        """``publish:workflow`` for each id, in parallel (each call is a 5–8 s CLI start)."""
        started = time.monotonic()
        with ThreadPoolExecutor(len(workflow_ids)) as pool:
            list(pool.map(lambda wid: self.cli("publish:workflow", f"--id={wid}"), workflow_ids))
        self.timings["publish"] = time.monotonic() - started

    # --- server ----------------------------------------------------------------------------

    def start(self, timeout: float = 120) -> None:
        self.server = Process("n8n", [N8N, "start"], self.env, self.folder / "n8n.log")
        self.timings["start"] = self.server.wait_until(
            lambda: httpx.get(f"{self.url}/healthz/readiness", timeout=2).status_code == 200,
            timeout,
            "ready",
        )
        if self.queue is not None:
            self.start_worker(timeout)

    def start_worker(self, timeout: float = 120) -> None:
        worker_port, broker_port = self.worker_ports
        self.worker = Process(
            "n8n worker",
            [N8N, "worker", "--concurrency=8"],
            {
                **self.env,
                "N8N_RUNNERS_BROKER_PORT": str(broker_port),
                "QUEUE_HEALTH_CHECK_ACTIVE": "true",
                "QUEUE_HEALTH_CHECK_PORT": str(worker_port),
                "N8N_PORT": str(worker_port),
            },
            self.folder / "worker.log",
        )
        self.worker.wait_until(
            lambda: (
                httpx.get(f"http://127.0.0.1:{worker_port}/healthz", timeout=2).status_code == 200
            ),
            timeout,
            "ready",
        )

    def wait_for_webhook(self, path: str, timeout: float = 60) -> None:
        """A published workflow's webhook answers 404 until the server has registered it."""
        assert self.server is not None
        self.server.wait_until(
            lambda: httpx.post(f"{self.url}/webhook/{path}", timeout=5, json={}).status_code != 404,
            timeout,
            f"serving webhook {path}",
        )

    def stop(self) -> None:
        for process in (self.server, self.worker):
            if process is not None:
                process.stop(grace=20)

    def restart(self) -> None:
        """Stop n8n (and its worker) as an operator does — SIGTERM, n8n's graceful shutdown —
        and start it again on the same database, ports and webhooks."""
        self.stop()
        self.start()

    def restart_worker(self) -> None:
        """Stop only the queue worker (SIGTERM) and start a new one; the main stays up."""
        assert self.worker is not None, "a worker runs in queue mode only"
        self.worker.stop(grace=20)
        self.start_worker()

    def log_tail(self, lines: int = 60) -> str:
        tail = self.server.log_tail(lines) if self.server else ""
        if self.worker is not None:
            tail += f"\n--- n8n worker ---\n{self.worker.log_tail(lines)}"
        return tail

    # --- what happened ---------------------------------------------------------------------

    def executions(self) -> list[dict[str, Any]]:
        """Executions, newest first: id, status, mode, workflowId, and the error when failed."""
        sql = (
            'SELECT e.id, e.status, e.mode, e."workflowId", d.data FROM execution_entity e '
            'LEFT JOIN execution_data d ON d."executionId" = e.id ORDER BY e.id DESC'
        )
        if self.queue is not None:
            rows = self.queue.fetch(sql)
        else:
            database = self.folder / "user" / ".n8n" / "database.sqlite"
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as conn:
                rows = conn.execute(sql).fetchall()
        out = []
        for exec_id, status, mode, workflow_id, data in rows:
            item = {"id": exec_id, "status": status, "mode": mode, "workflow": workflow_id}
            if data and status not in ("success",):
                item.update(_failure(unflatten(data)))
            out.append(item)
        return out

    def wait_idle(self, timeout: float = 60) -> None:
        """Until no execution is starting or running (a successful turn is not kept, so an
        ignored update leaves no other trace than having finished)."""
        sql = (
            "SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running') "
            'AND "deletedAt" IS NULL'
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.queue is not None:
                busy = self.queue.fetch(sql)[0][0]
            else:
                database = self.folder / "user" / ".n8n" / "database.sqlite"
                with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as conn:
                    busy = conn.execute(sql).fetchone()[0]
            if not busy:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{busy} n8n executions still running after {timeout:.0f}s")
            time.sleep(0.2)

    def explain(self) -> str:
        """The newest failed executions, for an assertion message."""
        failed = [e for e in self.executions() if e["status"] not in ("success", "running")]
        return json.dumps(failed[:3], indent=1, default=str)[:6000]


class Queue:
    """n8n's own Postgres database and Redis queue (``EXECUTIONS_MODE=queue``)."""

    def __init__(self, dsn: str, redis_url: str, prefix: str) -> None:
        self.dsn, self.redis_url, self.prefix = dsn, redis_url, prefix
        self.database = urlsplit(dsn).path.strip("/")

    def env(self) -> dict[str, str]:
        redis, pg = httpx.URL(self.redis_url), urlsplit(self.dsn)
        return {
            "DB_TYPE": "postgresdb",
            "DB_POSTGRESDB_HOST": _pg_host(pg.netloc),
            "DB_POSTGRESDB_PORT": str(pg.port or 5432),
            "DB_POSTGRESDB_DATABASE": self.database,
            "DB_POSTGRESDB_USER": pg.username or "postgres",
            "DB_POSTGRESDB_PASSWORD": pg.password or "",
            "EXECUTIONS_MODE": "queue",
            "QUEUE_BULL_REDIS_HOST": redis.host or "127.0.0.1",
            "QUEUE_BULL_REDIS_PORT": str(redis.port or 6379),
            "QUEUE_BULL_REDIS_DB": redis.path.strip("/") or "0",
            "QUEUE_BULL_PREFIX": self.prefix,
            # n8n's own cache (workflow owners, published versions, webhooks) is in Redis in
            # queue mode: a run's own prefix, or a later run on the same Redis reads this one's
            "N8N_REDIS_KEY_PREFIX": self.prefix,
            "OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS": "true",
        }

    def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        import asyncio

        import asyncpg

        async def go() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(self.dsn)
            try:
                if sql.startswith("UPDATE"):
                    await conn.execute(sql)
                    return []
                return [tuple(r) for r in await conn.fetch(sql)]
            finally:
                await conn.close()

        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, go()).result()


def _pg_host(netloc: str) -> str:
    """The host of ``user@host:port`` as n8n's Postgres client takes it: a name, or the folder
    of a Unix socket (the embedded Postgres: ``%2Fsocket%2Fdir``, kept in its case)."""
    host = netloc.rpartition("@")[2].rpartition(":")[0] or netloc.rpartition("@")[2]
    return unquote(host).strip("[]") or "127.0.0.1"


def unflatten(text: str) -> Any:
    """Decode n8n's execution data (the ``flatted`` format: one array, strings are indexes)."""
    table = json.loads(text)
    cache: dict[int, Any] = {}

    def get(index: int) -> Any:
        if index in cache:
            return cache[index]
        value = table[index]
        if isinstance(value, dict):
            out: Any = {}
            cache[index] = out
            for key, item in value.items():
                out[key] = get(int(item)) if isinstance(item, str) else item
            return out
        if isinstance(value, list):
            out = []
            cache[index] = out
            out.extend(get(int(item)) if isinstance(item, str) else item for item in value)
            return out
        return value

    return get(0)


def _failure(data: dict[str, Any]) -> dict[str, Any]:
    result = data.get("resultData", {})
    error = result.get("error") or {}
    node_errors = {}
    for node, runs in (result.get("runData") or {}).items():
        for run_ in runs or []:
            if run_ and run_.get("error"):
                err = run_["error"]
                node_errors[node] = {
                    k: err.get(k) for k in ("message", "description", "httpCode") if err.get(k)
                }
    return {
        "last_node": result.get("lastNodeExecuted"),
        "error": error.get("message"),
        "description": error.get("description"),
        "node_errors": node_errors,
    }
