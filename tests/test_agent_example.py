"""The AI Agent example (``n8n-workflows/ai-agent/telegram-agent.json``), checked without n8n:
what issue 30 asks of it is wired in (the E2E ``tests/e2e/test_agent_turns.py`` runs it).

- its connections name real nodes, and its error workflow is the shipped one;
- a pending turn waits durably (over 65 s, so n8n keeps it in its database) and comes back to
  the node that sends it again; the alert is raised once, giving up fails the execution;
- nothing on the reply's path can hang for long (the redelivery check has a short timeout);
- the memory node and the recall tool take their ids and the group rule from one place.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "n8n-workflows"
EXAMPLE = json.loads((FOLDER / "ai-agent" / "telegram-agent.json").read_text())
NODES = {n["name"]: n for n in EXAMPLE["nodes"]}


def targets(name: str, output: int = 0, kind: str = "main") -> list[str]:
    outputs = EXAMPLE["connections"].get(name, {}).get(kind, [])
    return [c["node"] for c in outputs[output]] if output < len(outputs) else []


def test_connections_name_existing_nodes_and_errors_go_to_the_shipped_error_workflow() -> None:
    for source, kinds in EXAMPLE["connections"].items():
        assert source in NODES, source
        for outputs in kinds.values():
            assert all(c["node"] in NODES for out in outputs for c in out), source
    errors = json.loads((FOLDER / "errors.json").read_text())["id"]
    assert EXAMPLE["settings"]["errorWorkflow"] == errors
    assert NODES["Report"]["parameters"]["workflowId"]["value"] == errors


def test_a_pending_turn_waits_durably_and_is_sent_again() -> None:
    save = NODES["Save turn"]
    assert save["parameters"]["operation"] == "saveAgentTurn" and save.get("executeOnce") is True
    assert targets("Send reply") == ["Save turn"]
    assert targets("Stored?", 1) == ["Try again?"]
    assert set(targets("Try again?", 0)) == {"First failure?", "Wait"}
    assert targets("Try again?", 1) == ["Gave up"]
    assert targets("Wait") == ["Save turn"]
    assert targets("First failure?", 0) == ["Degraded turn"]
    amount = NODES["Wait"]["parameters"]["amount"]
    shortest = int(re.search(r"(\d+) \* 2 \*\*", amount).group(1))  # type: ignore[union-attr]
    assert shortest > 65, amount  # n8n persists only waits over 65 s


def test_the_reply_path_cannot_hang_on_twin_core() -> None:
    check = NODES["Delivered before"]
    assert check["parameters"]["operation"] == "pulse"
    assert check["parameters"]["timeoutMs"] <= 2000
    assert check.get("onError") == "continueRegularOutput"  # memory down: the agent answers
    assert targets("Answered already?", 0) == ["Stored reply"]
    assert targets("Answered already?", 1) == ["AI Agent"]
    assert NODES["AI Agent"].get("onError") == "continueErrorOutput"
    assert set(targets("Apology")) == {"Chunks", "Model failed"}


def test_ids_and_the_group_rule_come_from_the_turn_node() -> None:
    turn: dict[str, Any] = NODES["Turn"]["parameters"]
    assert "chat.type" in turn["jsonOutput"] and "group_memory" in turn["jsonOutput"]
    for name in ("Twin Core Memory", "Recall From Twin Core"):
        params = NODES[name]["parameters"]
        for field in ("userId", "agentId", "chatId", "privateMemory", "chatType"):
            assert params[field].startswith("={{ $('Turn').first().json."), (name, field)
    persona = {
        a["name"]: a["value"] for a in NODES["Persona"]["parameters"]["assignments"]["assignments"]
    }
    assert persona["group_memory"] is False  # opt-in per persona


def test_replies_are_split_for_telegram() -> None:
    chunks = NODES["Chunks"]["parameters"]["jsonOutput"]
    assert "4096" in chunks and "&amp;" in chunks
    assert targets("Chunks") == ["One message each"]
    assert targets("One message each") == ["Send reply"]
    assert targets("Route", 1) == ["Text only"] and targets("Route", 2) == []
