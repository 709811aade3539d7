"""The fast brain's *Reply* expression (both workflows), run in Node.js as n8n runs it: what the
turn created and what it closed are confirmed under the reply, then the product's own
questions — so a todo closed by "I called Marta, so that's done" is seen, and one the person did
not mean is caught at once."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "n8n-workflows"
COMMIT = {
    "reply": "Okay.",
    "todos": [{"outcome": "created", "kind": "REMINDER", "text": "Call Marta"}],
    "completions": [
        {"todo_id": "t1", "kind": "REMINDER", "text": "Book the dentist", "outcome": "completed"},
        {"todo_id": "t2", "kind": "GOAL", "text": "Run a marathon", "outcome": "dropped"},
    ],
    "confirmations": [],
    "questions": ["Which one is done: 'Pay rent' or 'Call mum'?"],
}


def _reply(workflow: str, commit: dict[str, object]) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    nodes = json.loads((FOLDER / workflow).read_text())["nodes"]
    (expression,) = (n["parameters"]["jsonOutput"] for n in nodes if n["name"] == "Reply")
    assert expression.startswith("={{") and expression.endswith("}}")
    script = (
        "const DateTime = { fromISO: () => ({ toFormat: () => 'Fri 4 Dec' }) };\n"
        "const $ = () => ({ isExecuted: false, first: () => ({ json: { debug: false } }) });\n"
        f"const $json = {json.dumps(commit)};\n"
        f"process.stdout.write({expression[3:-2]});\n"
    )
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("workflow", ["fast-brain.json", "fast-brain-one-call.json"])
def test_the_reply_confirms_what_the_turn_created_and_closed(workflow: str) -> None:
    reply = _reply(workflow, COMMIT)
    assert reply["confirmations"] == [
        '✓ Added "Call Marta" to your reminders.',
        '✓ Done: "Book the dentist".',
        '✓ Dropped: "Run a marathon".',
    ]
    assert str(reply["reply"]).endswith("Which one is done: 'Pay rent' or 'Call mum'?")


@pytest.mark.parametrize("workflow", ["fast-brain.json", "fast-brain-one-call.json"])
def test_a_which_question_the_reply_asked_is_not_asked_again(workflow: str) -> None:
    asked = "Which marta do you mean — Marta (lives in Madrid) or Marta Silva (works at Globex)?"
    commit = {
        **COMMIT,
        "reply": asked,
        "questions": ["Which Marta do you mean — Marta (sister) or Marta Silva (colleague)?"],
    }
    reply = str(_reply(workflow, commit)["reply"])
    assert reply.count("do you mean") == 1 and reply.startswith(asked)
