"""What a designer edits in the editor after importing the shipped workflows, done to the JSON
before the E2E imports it: the Settings workflow's values, a persona's allow-list and group
memory, the slow brain's schedule."""

from __future__ import annotations

import json
from typing import Any


def configure(workflow: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The workflow with its "Settings" node's fields set (what a designer does once in the
    editor), and an "Error Trigger" workflow's too; fields it does not have are left alone."""
    out = json.loads(json.dumps(workflow))
    for node in out["nodes"]:
        if node["name"] == "Settings" and node["type"] == "n8n-nodes-base.set":
            for field in node["parameters"]["assignments"]["assignments"]:
                if field["name"] in values:
                    field["value"] = values[field["name"]]
    return out


def allow_users(workflow: dict[str, Any], user_ids: list[int]) -> dict[str, Any]:
    """The workflow with its Telegram Trigger restricted to these Telegram user ids (a
    persona's allow-list: "Restrict to User IDs")."""
    out = json.loads(json.dumps(workflow))
    for node in out["nodes"]:
        if node["type"] == "n8n-nodes-base.telegramTrigger":
            node["parameters"]["additionalFields"]["userIds"] = ",".join(map(str, user_ids))
    return out


def group_memory(workflow: dict[str, Any], on: bool) -> dict[str, Any]:
    """The persona workflow with its "Persona" node's ``group_memory`` set (a designer opting a
    persona in to the person's private memory in group chats)."""
    out = json.loads(json.dumps(workflow))
    for node in out["nodes"]:
        if node["name"] == "Persona" and node["type"] == "n8n-nodes-base.set":
            for field in node["parameters"]["assignments"]["assignments"]:
                if field["name"] == "group_memory":
                    field["value"] = on
    return out


def every_seconds(workflow: dict[str, Any], seconds: int) -> dict[str, Any]:
    """The workflow with its Schedule Trigger firing every ``seconds`` (tests: the real clock,
    a short interval)."""
    out = json.loads(json.dumps(workflow))
    for node in out["nodes"]:
        if node["type"] == "n8n-nodes-base.scheduleTrigger":
            node["parameters"]["rule"] = {
                "interval": [{"field": "seconds", "secondsInterval": seconds}]
            }
    return out


def twin_turn(workflow: dict[str, Any], turn_id: str) -> dict[str, Any]:
    """The persona workflow with its "Twin turn" node calling another Twin turn (a designer
    switching a persona to the one-call turn)."""
    out = json.loads(json.dumps(workflow))
    for node in out["nodes"]:
        if node["name"] == "Twin turn" and node["type"] == "n8n-nodes-base.executeWorkflow":
            node["parameters"]["workflowId"]["value"] = turn_id
    return out


def inline_settings(workflow: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The workflow with its "Settings" call replaced by a copy of the settings workflow's Set
    node (the layout before settings lived in one place; measure compares the two)."""
    out = json.loads(json.dumps(workflow))
    held = next(n for n in settings["nodes"] if n["type"] == "n8n-nodes-base.set")
    for i, node in enumerate(out["nodes"]):
        if node["name"] == "Settings" and node["type"] == "n8n-nodes-base.executeWorkflow":
            out["nodes"][i] = {**json.loads(json.dumps(held)), "id": node["id"]}
            out["nodes"][i]["position"] = node["position"]
    return out
