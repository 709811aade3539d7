"""The AI Agent E2E's workflows: the example as each persona's copy (its Persona values, bot
and Twin Core credential), the shipped error and settings workflows it reports through, and
hand-built flows of the Twin Core action node."""

from __future__ import annotations

import json
import uuid
from typing import Any

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.n8n import REPO
from tests.e2e.workflows import configure

EXAMPLE = REPO / "n8n-workflows" / "ai-agent" / "telegram-agent.json"


def persona_workflow(persona: str, number: int) -> dict[str, Any]:
    """The example workflow for one persona: its agent id, its bot, its own webhook."""
    workflow = json.loads(EXAMPLE.read_text())
    for node in workflow["nodes"]:
        if node["name"] == "Persona":  # what the designer sets once per persona
            for value in node["parameters"]["assignments"]["assignments"]:
                value["value"] = {"agent_id": persona, "bot_username": f"{persona}_bot"}.get(
                    value["name"], value["value"]
                )
    if number == 1:
        return workflow
    workflow["id"] = f"TwinAgentTg{persona[:5].capitalize():<5}".replace(" ", "x")[:16]
    workflow["name"] = f"Twin Core — AI Agent on Telegram ({persona})"
    for node in workflow["nodes"]:
        if "agentId" in node["parameters"]:
            node["parameters"]["agentId"] = persona
        if "telegramApi" in node.get("credentials", {}):
            node["credentials"]["telegramApi"] = {
                "id": f"TwinAgentTgBot0{number}",
                "name": f"Telegram bot ({persona})",
            }
        twin = {
            "offline": ("TwinCoreApiDown1", "Twin Core API (down)"),
            "slow": ("TwinCoreApiSlow1", "Twin Core API (slow)"),
            "flaky": ("TwinCoreApiFlaky", "Twin Core API (flaky)"),
        }.get(persona)
        if twin and "twinCoreApi" in node.get("credentials", {}):
            node["credentials"]["twinCoreApi"] = {"id": twin[0], "name": twin[1]}
        if node["type"].endswith("telegramTrigger"):
            node["webhookId"] = str(uuid.uuid4())
    return workflow


def shared_workflows(alerts: FakeTelegram) -> list[dict[str, Any]]:
    """The example's error workflow (*Twin Core — errors*) and the settings it reads its alert
    URL from, as shipped, the alert URL set to where the test reads alerts."""
    folder = EXAMPLE.parent.parent
    settings = configure(
        json.loads((folder / "settings.json").read_text()),
        {"alert_url": f"{alerts.base_url}/alerts"},
    )
    return [settings, json.loads((folder / "errors.json").read_text())]


ACTIONS = {"forget": "twin/agent-forget", "export": "twin/agent-export"}


def actions_workflows() -> list[dict[str, Any]]:
    """Webhook → Twin Core (the action node: Memory → Forget, Memory → Export) → the node's
    answer: a designer's hand-built flows, with typed fields instead of a JSON body."""
    operations = {
        "forget": {
            "resource": "memory",
            "operation": "forget",
            "userId": "={{ $json.body.user_id }}",
            "scope": "global",
            "entity": "={{ $json.body.entity }}",
            "reason": "asked in the test",
        },
        "export": {
            "resource": "memory",
            "operation": "export",
            "userId": "={{ $json.body.user_id }}",
        },
    }
    out = []
    for name, parameters in operations.items():
        out.append(
            {
                "id": f"TwinAgentAct{name[:4].capitalize()}",
                "name": f"Twin Core — {name} (test)",
                "active": False,
                "settings": {"executionOrder": "v1"},
                "nodes": [
                    {
                        "id": "a0000000-0000-4000-8000-000000000001",
                        "name": "Webhook",
                        "type": "n8n-nodes-base.webhook",
                        "typeVersion": 2.1,
                        "position": [0, 0],
                        "webhookId": str(uuid.uuid4()),
                        "parameters": {
                            "httpMethod": "POST",
                            "path": ACTIONS[name],
                            "responseMode": "lastNode",
                            "options": {},
                        },
                    },
                    {
                        "id": "a0000000-0000-4000-8000-000000000002",
                        "name": "Twin Core",
                        "type": "n8n-nodes-twin-core.twinCore",
                        "typeVersion": 1,
                        "position": [220, 0],
                        "parameters": parameters,
                        "credentials": {
                            "twinCoreApi": {"id": "TwinCoreApiCred1", "name": "Twin Core API"}
                        },
                    },
                ],
                "connections": {
                    "Webhook": {"main": [[{"node": "Twin Core", "type": "main", "index": 0}]]}
                },
            }
        )
    return out
