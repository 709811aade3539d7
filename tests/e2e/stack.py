"""What the E2E test talks to: the running stack and the secrets of this run."""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.n8n import WORKFLOWS, N8nInstance
from tests.e2e.processes import Process
from tests.e2e.stub_llm import StubLLM

# How n8n runs under the E2E stack: ``single`` (one process, SQLite) and ``queue`` (main +
# worker, Postgres, Redis); ``TWIN_E2E_N8N_MODES`` picks (e.g. "queue").
N8N_MODES = [
    mode.strip()
    for mode in os.environ.get("TWIN_E2E_N8N_MODES", "single,queue").split(",")
    if mode.strip()
]
# For a test whose proof does not depend on how n8n runs (what a flow computes, what a node
# answers, what reaches the model or Telegram): the first mode only. What queue mode changes —
# a worker runs the executions, waits and redeliveries go through Postgres and Redis, restarts
# — stays in both (see tests/e2e/README.md).
ONE_MODE = pytest.mark.parametrize("stack", N8N_MODES[:1], indirect=True)
# For what only queue mode has (a worker): that mode only (no test when it is not run).
QUEUE_MODE = pytest.mark.parametrize(
    "stack", [mode for mode in N8N_MODES if mode == "queue"], indirect=True
)

AGENT_ID = "deanna"  # the persona of the first bot (n8n-workflows/persona-deanna.json)
PERSONAS = ("deanna", "anaketa")  # one bot each: persona-<agent>.json, "Telegram bot — <Name>"
# Anaketa's allow-list in the E2E (Telegram user ids of this run only): anyone else is ignored.
ANAKETA_ALLOWED = tuple(secrets.randbelow(9 * 10**8) + 10**8 for _ in range(3))


def _bot_token() -> str:
    return f"{secrets.randbelow(10**9)}:" + secrets.token_urlsafe(20)


@dataclass
class Secrets:
    node_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    model_key: str = field(default_factory=lambda: "sk-stub-" + secrets.token_hex(8))
    bot_tokens: dict[str, str] = field(
        default_factory=lambda: {agent: _bot_token() for agent in PERSONAS}
    )
    webhook_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    @property
    def bot_token(self) -> str:
        """The first persona's bot (what a one-bot test talks to)."""
        return self.bot_tokens[AGENT_ID]


@dataclass
class Stack:
    n8n: N8nInstance
    nodes: Process
    llm: StubLLM
    telegram: FakeTelegram
    secrets: Secrets
    database_url: str
    ports: dict[str, int]
    timings: dict[str, float]
    telegram_webhook: dict[str, Any] = field(default_factory=dict)  # the first persona's bot
    bot_webhooks: dict[str, dict[str, Any]] = field(default_factory=dict)  # agent → setWebhook
    restart_nodes: Any = None  # () -> None: stop ``twin up`` and start it again (same stores)
    run: str = field(default_factory=lambda: secrets.token_hex(3))
    users: set[str] = field(default_factory=set)

    def user(self, name: str) -> str:
        """A user id of this run only: runs side by side share a Redis db, never a user."""
        user_id = f"{name}-{self.run}"
        self.users.add(user_id)
        return user_id

    def webhook(self, path: str, body: dict[str, Any], timeout: float = 60) -> httpx.Response:
        """POST to a published workflow's webhook with the webhook secret header."""
        return httpx.post(
            f"{self.n8n.url}/webhook/{path}",
            json=body,
            timeout=timeout,
            headers={"X-Twin-Webhook-Secret": self.secrets.webhook_secret},
        )

    def telegram_update(
        self, update: dict[str, Any], timeout: float = 30, agent: str = AGENT_ID
    ) -> httpx.Response:
        """Deliver an update the way Telegram does to a persona's bot: to the URL and with the
        secret n8n set for that bot."""
        hook = self.bot_webhooks.get(agent) or self.telegram_webhook
        return httpx.post(
            hook["url"],
            json=update,
            timeout=timeout,
            headers={"X-Telegram-Bot-Api-Secret-Token": hook["secret_token"]},
        )

    def node(self, name: str, route: str, body: dict[str, Any]) -> httpx.Response:
        """Call a node directly (to look at memory the way n8n would)."""
        return httpx.post(
            f"http://127.0.0.1:{self.ports[name]}{route}",
            json=body,
            timeout=30,
            headers={"Authorization": f"Bearer {self.secrets.node_token}"},
        )


def credentials_for(stack_secrets: Secrets, telegram_url: str) -> list[dict[str, Any]]:
    """``n8n-workflows/credentials.example.json`` with this run's values filled in."""
    fill = {
        "Twin node token": {"value": f"Bearer {stack_secrets.node_token}"},
        "Model API key": {"value": f"Bearer {stack_secrets.model_key}"},
        "Twin webhook secret": {"value": stack_secrets.webhook_secret},
        **{
            f"Telegram bot — {agent.capitalize()}": {"accessToken": token, "baseUrl": telegram_url}
            for agent, token in stack_secrets.bot_tokens.items()
        },
    }
    example = json.loads((WORKFLOWS / "credentials.example.json").read_text())
    out = []
    for credential in example:
        data = {**credential["data"], **fill[credential["name"]]}
        assert not any("CHANGE-ME" in str(v) for v in data.values()), credential["name"]
        out.append({**credential, "data": data})
    return out


def eventually(check: Callable[[], bool], timeout: float, explain: Callable[[], str]) -> None:
    """Poll ``check`` until true (what n8n does in the background has no reply to wait on)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not so after {timeout:.0f}s\n{explain()}")
        time.sleep(0.25)
