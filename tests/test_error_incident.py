"""The error workflow's *Incident* expression, run in Node.js as n8n runs it: the turn id is
read whole out of the message commit-later gives up with, colons and all (``tg:123:456``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "n8n-workflows"


def _incident_js() -> str:
    nodes = json.loads((FOLDER / "errors.json").read_text())["nodes"]
    (expression,) = (n["parameters"]["jsonOutput"] for n in nodes if n["name"] == "Incident")
    assert expression.startswith("={{") and expression.endswith("}}")
    return expression[3:-2]


def _gave_up_message(turn_id: str) -> str:
    """commit-later's last word on a turn, built from its own expression."""
    nodes = json.loads((FOLDER / "commit-later.json").read_text())["nodes"]
    (template,) = (
        n["parameters"]["errorMessage"] for n in nodes if "errorMessage" in n.get("parameters", {})
    )
    assert "'Gave up on the turn ' +" in template
    return f"Gave up on the turn {turn_id}: it could not be committed: " + '{"status":503}'


def _run(payload: dict[str, object]) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    script = (
        "const $now = { toUTC: () => ({ toISO: () => '2026-11-27T10:00:00Z' }) };\n"
        f"const $json = {json.dumps(payload)};\n"
        f"process.stdout.write({_incident_js()});\n"
    )
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("turn_id", ["tg:123:456", "tg:700001", "chat:owner:9", "abc"])
def test_the_turn_id_is_read_whole_from_a_failed_execution(turn_id: str) -> None:
    failed = {
        "workflow": {"id": "w1", "name": "Twin Core — commit later"},
        "execution": {"id": "7", "error": {"message": _gave_up_message(turn_id)}},
    }
    incident = _run(failed)
    assert incident["kind"] == "failed"
    assert incident["turn_id"] == turn_id


def test_a_degraded_turn_keeps_the_id_it_was_given() -> None:
    degraded = {"degraded": True, "turn_id": "tg:1:2", "execution": {"error": {"message": "x"}}}
    incident = _run(degraded)
    assert (incident["kind"], incident["turn_id"]) == ("degraded", "tg:1:2")


def test_no_turn_in_the_message_is_no_turn_id() -> None:
    incident = _run({"execution": {"error": {"message": "Twin turn: connection refused: 503"}}})
    assert incident["turn_id"] is None
