"""The AI Agent E2E stack: the community package ``n8n-nodes-twin-core`` built from
``n8n-nodes/`` with n8n's own tooling, installed into a second real n8n the way a self-hosting
user installs a community node (``npm install`` in the user folder's ``.n8n/nodes``, with
``N8N_COMMUNITY_PACKAGES_ENABLED=false``), on n8n's default expression engine with ``$env``
blocked. It shares the session stack's ``twin up`` and runs its own chat model stub
(:mod:`tests.e2e.agent_llm`) and one fake Telegram Bot API per persona (one bot = one persona).

The personas are copies of ``n8n-workflows/ai-agent/telegram-agent.json`` with their own
agent id, bot credential and Telegram webhook; ``offline`` points its Twin Core credential at
a port where nothing listens (memory unreachable), ``slow`` its rag-gate and
envelope-validator URLs at a port that accepts and never answers (hung nodes: the one-call
load and the node-by-node retrieve both time out), ``flaky`` its memory-upserter URL at a
:class:`~tests.e2e.gate.Gate` the test opens later (a memory outage that ends). Beside the
queue-mode stack the agent's n8n runs in queue mode too (:mod:`tests.e2e.agent_queue`).
"""

from __future__ import annotations

import copy
import json
import os
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.agent_llm import AgentLLM
from tests.e2e.agent_queue import agent_queue, drop_agent_queue
from tests.e2e.agent_workflows import (  # noqa: F401 - ACTIONS: the tests' import
    ACTIONS,
    actions_workflows,
    persona_workflow,
    shared_workflows,
)
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.gate import Blackhole, Gate
from tests.e2e.n8n import REPO, N8nInstance, unflatten
from tests.e2e.processes import free_port
from tests.e2e.stack import Stack

PACKAGE = REPO / "tools" / "n8n" / "nodes-package.sh"
CREDENTIALS = REPO / "n8n-workflows" / "ai-agent" / "credentials.example.json"
PERSONAS = ("deanna", "coach", "offline", "slow", "flaky")
MEMORY_NODE = "Twin Core Memory"
ERRORS_WORKFLOW = "TwinErrors000001"  # n8n-workflows/errors.json
REGISTRY_UNREACHABLE = 75


@dataclass
class AgentStack:
    stack: Stack
    n8n: N8nInstance
    llm: AgentLLM
    bots: dict[str, FakeTelegram]
    gate: Gate | None = None
    webhooks: dict[str, dict[str, Any]] = field(default_factory=dict)
    executions_before: int = 0

    def say(self, persona: str, update: dict[str, Any], timeout: float = 60) -> str:
        """Deliver a Telegram update to a persona's bot; return the text the bot sent back."""
        bot = self.bots[persona]
        before = len(bot.sent)
        self.executions_before = self._newest_execution_id()
        answer = httpx.post(
            self.webhooks[persona]["url"],
            json=update,
            timeout=timeout,
            headers={"X-Telegram-Bot-Api-Secret-Token": self.webhooks[persona]["secret_token"]},
        )
        assert answer.status_code == 200, answer.text
        try:
            sent = bot.wait_for_sent(before + 1, timeout=timeout)[before]
        except TimeoutError as exc:
            raise AssertionError(
                f"{persona}: no reply: {exc}\n{self.n8n.explain()}\n{self.n8n.log_tail(30)}"
            ) from None
        return str(sent["text"])

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        """n8n's own database: SQLite, or Postgres in queue mode (identifiers quoted)."""
        if self.n8n.queue is not None:
            return self.n8n.queue.fetch(sql)
        database = self.n8n.folder / "user" / ".n8n" / "database.sqlite"
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute(sql).fetchall()

    def _newest_execution_id(self) -> int:
        rows = self._query("SELECT MAX(CAST(id AS INTEGER)) FROM execution_entity")
        return int(rows[0][0] or 0)

    def last_execution(self, timeout: float = 30) -> dict[str, Any]:
        """The execution the last :meth:`say` started, once n8n has saved it (the reply is
        sent before the execution's data is written): its id and run data by node name. The
        error workflow's run, which an alert starts after it, is not it."""

        def finished() -> list[tuple[Any, ...]]:
            return self._query(
                "SELECT e.id, d.data FROM execution_entity e JOIN execution_data d "
                'ON d."executionId" = e.id WHERE CAST(e.id AS INTEGER) > '
                f'{self.executions_before} AND e."stoppedAt" IS NOT NULL '
                f"AND e.\"workflowId\" <> '{ERRORS_WORKFLOW}' "
                "ORDER BY CAST(e.id AS INTEGER) DESC LIMIT 1"
            )

        rows = finished()
        deadline = time.monotonic() + timeout
        while not rows and time.monotonic() < deadline:
            time.sleep(0.2)
            rows = finished()
        assert rows, f"no finished execution after #{self.executions_before}"
        exec_id, data = rows[0]
        return {"id": str(exec_id), "runs": unflatten(data)["resultData"]["runData"]}

    def memory_calls(self, execution_id: str) -> Counter[str]:
        """Routes the Twin Core nodes served for one execution's memory node (from their
        request log: every call carries ``X-Request-Id: n8n-<execution>-<node>-<step>``)."""
        prefix = f"n8n-{execution_id}-"
        routes: Counter[str] = Counter()
        for line in self.stack.nodes.log_path.read_text(errors="replace").splitlines():
            if '"request_id"' not in line or prefix not in line:
                continue
            entry = json.loads(line)
            if entry.get("event") == "request" and entry["request_id"].startswith(prefix):
                routes[f"{entry['request_id'][len(prefix) :]} {entry['route']}"] += 1
        return routes


def _build_package(folder: Path) -> Path:
    done = subprocess.run(
        [str(PACKAGE)],
        capture_output=True,
        text=True,
        timeout=1_200,
        stdin=subprocess.DEVNULL,
        check=False,
        env={**os.environ, "TWIN_NODES_PACK_DIR": str(folder)},
    )
    if done.returncode == REGISTRY_UNREACHABLE:
        pytest.skip(
            f"n8n-nodes cannot be built: the npm registry cannot be reached "
            f"({done.stderr.strip()[-300:]})"
        )
    assert done.returncode == 0, f"nodes-package.sh failed:\n{done.stderr[-4000:]}"
    return Path(done.stdout.strip().splitlines()[-1])


def _install_package(tarball: Path, user_folder: Path) -> None:
    """What a self-hosting user does: ``npm install <package>`` in ``~/.n8n/nodes``. Peer
    dependencies (n8n-workflow, @n8n/ai-node-sdk) are left out: n8n provides its own."""
    nodes = user_folder / ".n8n" / "nodes"
    nodes.mkdir(parents=True, exist_ok=True)
    (nodes / "package.json").write_text('{"name": "installed-nodes", "private": true}\n')
    done = subprocess.run(
        [
            "npm",
            "install",
            str(tarball),
            "--legacy-peer-deps",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ],
        cwd=nodes,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, f"npm install {tarball.name} failed:\n{done.stderr[-3000:]}"
    assert (nodes / "node_modules" / "n8n-nodes-twin-core" / "dist").is_dir()


def _credentials(
    stack: Stack,
    llm: AgentLLM,
    bots: dict[str, FakeTelegram],
    dead_port: int,
    hung_port: int,
    gate_port: int,
) -> list[dict[str, Any]]:
    example = {c["type"]: c for c in json.loads(CREDENTIALS.read_text())}
    urls = {
        "pulseUrl": "pulse-decay",
        "hydrateUrl": "graph-hydrator",
        "retrieveUrl": "rag-gate",
        "envelopeUrl": "envelope-validator",
        "reflectUrl": "reflection-writer",
        "memoryUrl": "memory-upserter",
    }
    twin = copy.deepcopy(example["twinCoreApi"])
    twin["data"] = {
        "token": stack.secrets.node_token,
        **{key: f"http://127.0.0.1:{stack.ports[node]}" for key, node in urls.items()},
    }
    down = {**copy.deepcopy(twin), "id": "TwinCoreApiDown1", "name": "Twin Core API (down)"}
    down["data"] = {**twin["data"], **{key: f"http://127.0.0.1:{dead_port}" for key in urls}}
    slow = {**copy.deepcopy(twin), "id": "TwinCoreApiSlow1", "name": "Twin Core API (slow)"}
    hung = f"http://127.0.0.1:{hung_port}"
    slow["data"] = {**twin["data"], "retrieveUrl": hung, "envelopeUrl": hung}
    model = copy.deepcopy(example["openAiApi"])
    model["data"] = {"apiKey": "sk-agent-stub", "url": llm.base_url}
    flaky = {**copy.deepcopy(twin), "id": "TwinCoreApiFlaky", "name": "Twin Core API (flaky)"}
    flaky["data"] = {**twin["data"], "memoryUrl": f"http://127.0.0.1:{gate_port}"}
    out = [twin, down, slow, flaky, model]
    for number, (persona, bot) in enumerate(bots.items(), start=1):
        telegram = copy.deepcopy(example["telegramApi"])
        telegram.update(id=f"TwinAgentTgBot0{number}", name=f"Telegram bot ({persona})")
        telegram["data"] = {
            "accessToken": f"{number}{free_port()}:agent-{persona}",
            "baseUrl": bot.base_url,
        }
        out.append(telegram)
    return out


@pytest.fixture(scope="session")
def agent_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The community package, built and packed once for the run: each mode's agent n8n
    installs the same tarball (a build is ~20 s of TypeScript on two cores)."""
    return _build_package(tmp_path_factory.mktemp("agent-package"))


@pytest.fixture(scope="session", name="agent_stack")
def agent_stack_fixture(
    stack: Stack, agent_package: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AgentStack]:
    """One agent n8n per mode, shared by every agent test module (registered in
    ``tests/e2e/conftest.py``, so the modules share it; it lives until that mode's stack
    closes). A test that changes it (``n8n.restart``) leaves it serving as before."""
    folder = tmp_path_factory.mktemp("agent")
    queue = agent_queue(stack)  # queue mode beside the queue-mode stack: a main and a worker
    tarball = agent_package
    llm = AgentLLM().start()
    bots = {persona: FakeTelegram().start() for persona in PERSONAS}
    hung = Blackhole()
    gate = Gate(stack.ports["memory-upserter"])
    n8n = N8nInstance(
        folder / "n8n",
        {
            "N8N_COMMUNITY_PACKAGES_ENABLED": "false",
            "N8N_EXPRESSION_ENGINE": "vm",
            "N8N_BLOCK_ENV_ACCESS_IN_NODE": "true",
        },
        queue=queue,
    )
    agent = AgentStack(stack, n8n, llm, bots, gate)
    try:
        _install_package(tarball, folder / "n8n" / "user")
        workflows = [persona_workflow(p, n) for n, p in enumerate(PERSONAS, start=1)]
        workflows.extend(actions_workflows())
        workflows.extend(shared_workflows(bots["deanna"]))
        n8n.import_all(workflows, _credentials(stack, llm, bots, free_port(), hung.port, gate.port))
        n8n.publish_in_db([w["id"] for w in workflows])  # as the stack does: no CLI starts
        n8n.start()
        for persona, bot in bots.items():
            agent.webhooks[persona] = bot.wait_for_webhook(60)
        for path in ACTIONS.values():
            n8n.wait_for_webhook(path)
        yield agent
    except Exception:
        print(f"--- agent n8n log ---\n{n8n.log_tail(80)}")
        raise
    finally:
        n8n.stop()
        llm.stop()
        hung.stop()
        gate.stop()
        if queue is not None:
            drop_agent_queue(queue)
        for bot in bots.values():
            bot.stop()
