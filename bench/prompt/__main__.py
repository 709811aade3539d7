"""``uv run python -m bench.prompt [--before PATH]``: the prompt size per turn of a scripted
conversation, through the product as n8n drives it.

Each turn is one ``POST /v1/turn`` (rag-gate: pulse → hydrate → retrieve → envelope) and one
``POST /v1/commit`` (memory-upserter) of the user's message, the scripted reply and the
scripted plan (:mod:`.script`), on ``twin up`` in a subprocess (database ``twin_prompt``,
dropped first; Redis db 10, flushed; ports offset 730). Per turn it records what the model is
sent: the system message, the replayed history and the user message (``messages``), and the
``response_format`` (compact JSON, as an OpenAI request carries it); tokens are estimated as
characters / 4 (no tokenizer: tiktoken needs its vocabulary from the network). It also counts
old turns shown more than once and fact lines of the authoritative GRAPH without a handle.

``--before PATH`` runs the same script first on the server code at PATH (a checkout of the
commit before, same venv: ``TWIN_BENCH_SERVER_TREE``) and writes both to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import uuid
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import httpx

from bench.common import OUT, PG_ADMIN, Stack, machine, machine_line, table, write_section
from bench.prompt.script import Say, timed

DATABASE, REDIS_DB, PORT_OFFSET = "twin_prompt", 10, 730
IDS = {"user_id": "tg:ana", "agent_id": "deanna", "chat_id": "tg:ana"}
QUIET = timedelta(minutes=31)  # past session_idle_minutes: the session has ended
PERSONA = "You are Deanna, a warm and direct coach. Keep replies short."


async def _drop_database() -> None:
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    finally:
        await admin.close()


def _turns_shown(messages: list[dict[str, str]]) -> list[str]:
    """Every turn the prompt shows as a turn: the replayed history, and each data line that
    quotes one (a recalled turn, its context, the previous session's tail)."""
    shown = [m["content"] for m in messages[1:-1]]
    for line in messages[0]["content"].splitlines():
        if line.startswith('{"when"') and '"said_by"' in line:
            item = json.loads(line)
            shown += [item["text"], *([item["after"]["text"]] if "after" in item else [])]
    return shown


def _repeats(messages: list[dict[str, str]], said: list[str]) -> int:
    """Old user messages shown as a turn more than once (the current one is not old)."""
    shown = _turns_shown(messages)
    return sum(1 for s in said if shown.count(s) > 1)


def _measure(envelope: dict[str, Any], said: list[str]) -> dict[str, Any]:
    messages = envelope["messages"]
    schema = len(json.dumps(envelope["response_format"], separators=(",", ":")))
    system = len(messages[0]["content"])
    total = sum(len(m["content"]) for m in messages)
    return {
        "system": system,
        "history": total - system - len(messages[-1]["content"]),
        "messages": total,
        "schema": schema,
        "tokens": round((total + schema) / 4),
        "sections": envelope["stats"]["chars"],
        "repeated_turns": _repeats(messages, said),
        "raw_in_graph": _raw_in_graph(messages[0]["content"], said),
        "affect_in_foundation": _foundation(messages[0]["content"]).count("said they feel"),
    }


def _foundation(system: str) -> str:
    """The FOUNDATION MEMORIES section ('' when there is none)."""
    if "[FOUNDATION MEMORIES]\n" not in system:
        return ""
    return system.split("[FOUNDATION MEMORIES]\n", 1)[1].split("\n\n", 1)[0]


def _raw_in_graph(system: str, said: list[str]) -> int:
    """Lines of an authoritative GRAPH block that hold an old user message as it was said
    (a raw sentence stored as a fact, e.g. a psyche guess)."""
    inside, found = False, 0
    for line in system.splitlines():
        if line.startswith("<data "):
            inside = 'authority="authoritative"' in line
        elif line == "</data>":
            inside = False
        elif inside:
            found += any(s.casefold() in line.casefold() for s in said)
    return found


def _turn(client: httpx.Client, stack: Stack, say: Say, said: list[str]) -> dict[str, Any]:
    """One turn: what the model is sent, measured, then the scripted answer committed."""
    now = say.at.isoformat()
    answer = client.post(
        stack.url("rag-gate") + "/v1/turn",
        json={**IDS, "message": say.text, "persona_prompt": PERSONA, "now": now},
    )
    answer.raise_for_status()
    turn = answer.json()
    row = {"message": say.text, "next": turn["next"]}
    if turn["next"] == "model":
        row |= _measure(turn["envelope"], said)
        row["prompt"] = [turn["envelope"]["messages"], turn["envelope"]["response_format"]]
    commit = {
        **IDS,
        "turn_id": uuid.uuid4().hex,
        "now": now,
        "messages": [{"role": "user", "text": say.text}, {"role": "assistant", "text": say.reply}],
        "active_entity_ids": (turn.get("hydrate") or {}).get("active_entity_ids", []),
        "plan": say.plan,
    }
    stored = client.post(stack.url("memory-upserter") + "/v1/commit", json=commit)
    row["commit"] = stored.status_code
    if stored.status_code >= 400:  # what the turn would lose; store the messages at least
        commit.pop("plan")
        stored = client.post(stack.url("memory-upserter") + "/v1/commit", json=commit)
        stored.raise_for_status()
    row["session_id"] = stored.json()["session_id"]
    return row


def _consolidate(client: httpx.Client, stack: Stack, session_id: str, now: datetime) -> None:
    """The slow brain on the session that just ended (as its schedule would run it)."""
    for _ in range(20):
        answer = client.post(
            stack.url("reflection-writer") + "/v1/consolidate",
            json={"session_id": session_id, "now": now.isoformat()},
        )
        answer.raise_for_status()
        if not any(s.get("more_pending") for s in answer.json()["sessions"]):
            return


def run(tree: str | None) -> list[dict[str, Any]]:
    """The conversation on a fresh stack serving the code at ``tree`` (this checkout: None)."""
    previous = os.environ.pop("TWIN_BENCH_SERVER_TREE", None)
    if tree:
        os.environ["TWIN_BENCH_SERVER_TREE"] = tree
    asyncio.run(_drop_database())
    stack = Stack(DATABASE, REDIS_DB, PORT_OFFSET, fresh=False)
    rows, said = [], []
    try:
        stack.start()
        with httpx.Client(timeout=60.0) as client:
            last: Say | None = None
            for say in timed():
                if last is not None and say.at.date() != last.at.date():
                    _consolidate(client, stack, rows[-1]["session_id"], last.at + QUIET)
                rows.append(_turn(client, stack, say, said))
                said.append(say.text)
                last = say
    finally:
        stack.stop()
        os.environ.pop("TWIN_BENCH_SERVER_TREE", None)
        if previous is not None:
            os.environ["TWIN_BENCH_SERVER_TREE"] = previous
    return rows


def _mean(rows: list[dict[str, Any]], key: str) -> int:
    values = [r[key] for r in rows if key in r]
    return round(sum(values) / len(values)) if values else 0


def report(runs: dict[str, list[dict[str, Any]]], info: dict[str, str]) -> str:
    keys = [
        "system",
        "history",
        "messages",
        "schema",
        "tokens",
        "repeated_turns",
        "raw_in_graph",
        "affect_in_foundation",
    ]
    labels = list(runs)
    first = runs[labels[0]]
    per_turn = [
        [n + 1, row["message"][:34]]
        + ["/".join(str(runs[label][n].get(key, "–")) for label in labels) for key in keys]
        for n, row in enumerate(first)
    ]
    sizes = keys[:5]  # the rest are counts: added up over the turns
    means = [
        [label] + [_mean(rows, k) if k in sizes else sum(r.get(k, 0) for r in rows) for k in keys]
        for label, rows in runs.items()
    ]
    header = ["turn", "message"] + [f"{k} ({'/'.join(labels)})" for k in keys]
    return "\n\n".join(
        [
            "## `bench/prompt` — what the model is sent, per turn",
            machine_line(info),
            "`uv run python -m bench.prompt --before PATH` (PATH: the commit before, as files). "
            "Characters of the chat `messages` (system message, replayed history, user "
            "message) and of `response_format` (compact JSON); tokens ≈ (messages + schema) / "
            "4, an estimate with no tokenizer. `repeated_turns`: old user messages shown as a "
            "turn (history, recalled turn or its context, previous session's tail) more than "
            "once; `raw_in_graph`: lines of an authoritative GRAPH block holding an old user "
            "message word for word; `affect_in_foundation`: promoted feelings in FOUNDATION.",
            "Sizes: the mean per turn; counts: the sum over the turns.",
            table(["run", *keys], means),
            table(header, per_turn),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a checkout of the code to compare with")
    args = parser.parse_args()
    info = machine()
    runs = {}
    if args.before:
        runs["before"] = run(args.before)
    runs["after" if args.before else "now"] = run(None)
    OUT.mkdir(parents=True, exist_ok=True)  # every prompt as sent, to read
    (OUT / "prompt.json").write_text(json.dumps(runs, indent=1, ensure_ascii=False))
    text = report(runs, info)
    print(text)
    write_section("prompt", text)


if __name__ == "__main__":
    main()
