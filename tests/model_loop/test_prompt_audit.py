"""What the model reads, audited turn by turn over the recorded conversations (every set but the
blind one): how many pending commitments the COMMITMENTS cap hides (a todo the prompt does not
list is one the model cannot name in ``done``/``dropped``), FOUNDATION lines saying one fact
twice, recalled turns marked as history, entity lines of one name that nothing tells apart, and
the system message's size. A measurement, not a gate: ``TWIN_PROMPT_AUDIT=1`` runs it (it
replays every set once more) and writes its figures to the file it names (``-s`` prints nothing
from a worker); they are in bench/RESULTS.md ("wt10/prompt")."""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.model_loop.replay import ALL_STYLES, play_turn, styles_of
from services.graph_hydrator.text import dedupe_key
from tests.model_loop.conftest import RECORDED

pytestmark = pytest.mark.skipif(
    not os.environ.get("TWIN_PROMPT_AUDIT"), reason="a measurement: TWIN_PROMPT_AUDIT=1 runs it"
)
BLIND = "v8"  # held out this round: never replayed here


def _section(system: str, header: str) -> list[dict[str, Any]]:
    """The JSON lines of one ``[HEADER]`` section of the system message."""
    if f"[{header}]\n" not in system:
        return []
    body = system.split(f"[{header}]\n", 1)[1].split("\n\n[", 1)[0]
    return [json.loads(line) for line in body.splitlines() if line.startswith("{")]


def audit(one: dict[str, Any], n: Counter[str]) -> None:
    """Count what one turn's prompt shows into ``n``."""
    graph = (one.get("hydrate") or {}).get("GRAPH") or {}
    hidden = graph.get("dropped", {}).get("todos_commitment", 0)
    n["turns"] += 1
    n["turns_hiding_commitments"] += hidden > 0
    n[f"pending_{len(graph.get('commitments', [])) + hidden}"] += 1
    system = one["envelope"]["messages"][0]["content"]
    n["system_chars"] += len(system)
    foundation = [dedupe_key(line["fact"]) for line in _section(system, "FOUNDATION MEMORIES")]
    n["foundation_repeats"] += len(foundation) - len(set(foundation))
    relevant = _section(system, "RELEVANT MEMORIES")
    n["history_notes"] += sum("history" in line for line in relevant)
    n["timed_fact_lines"] += sum(
        bool({"from", "until"} & line.keys()) for line in relevant if "fact" in line
    )
    names = Counter(
        dedupe_key(e["entity"])
        for e in _section(system, "ENTITIES AND RELATIONS")
        if not e.get("aliases") and not e.get("hint")
    )
    n["bare_namesakes"] += sum(c for c in names.values() if c > 1)


async def test_what_the_model_reads_turn_by_turn(nodes) -> None:
    n: Counter[str] = Counter()
    for conv in (c for name, c in sorted(RECORDED.items()) if not name.startswith(BLIND)):
        for style in (s for s in styles_of(conv) if s in ALL_STYLES):
            user_id = f"{conv['id']}-{style}-{uuid.uuid4().hex[:6]}"
            for turn in conv["turns"]:
                answer = turn["answers"][style]
                _, one, _ = await play_turn(
                    nodes["retrieve"], nodes["memory"], conv, turn, user_id, answer["raw"],
                    answer.get("handles"),
                )  # fmt: skip
                if one["next"] == "model":
                    audit(one, n)
    pending = sorted((int(k.split("_")[1]), v) for k, v in n.items() if k.startswith("pending_"))
    lines = [f"{k}: {n[k]}" for k in sorted(n) if not k.startswith("pending_")]
    lines.append("pending commitments → turns: " + ", ".join(f"{p}→{v}" for p, v in pending))
    lines += [
        f"a cap of {cap} hides one or more on {sum(v for p, v in pending if p > cap)} turns"
        for cap in (5, 8, 10)
    ]
    Path(os.environ["TWIN_PROMPT_AUDIT"]).write_text("\n".join(lines) + "\n")  # noqa: ASYNC240
    assert n["turns"] > 0
